package dev.mcpx.catalogue;

import dev.mcpx.protocol.Json;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Ranks tools for a free-text query with BM25 over a tool's fields, each term counted with its
 * field's weight (a name's words count most, an argument's description least): names, title,
 * description, argument names and descriptions, and what the annotations say. Words are split at
 * case changes, digits and punctuation ({@code list_pull_requests}, {@code getFileContents}),
 * lower-cased and lightly stemmed, so "creating issues" finds {@code create_issue}.
 */
public final class ToolIndex {

    private static final double K1 = 1.2;
    private static final double B = 0.75;
    private static final double NAME = 3.0;
    private static final double TITLE = 2.0;
    private static final double DESCRIPTION = 1.0;
    private static final double ARGUMENT = 1.0;
    private static final double ARGUMENT_DESCRIPTION = 0.5;
    private static final double ANNOTATION = 1.0;
    private static final Set<String> STOP = Set.of("a", "an", "the", "of", "to", "for", "and", "or", "in", "on",
            "with", "by", "is", "it", "its", "this", "that", "from", "as", "be", "are", "at", "use", "using", "you",
            "your", "can", "will", "if", "into", "me", "my", "i", "do", "how", "what", "which", "some", "via");

    private final List<ObjectNode> source;
    private final List<Map<String, Double>> documents = new ArrayList<>();
    private final List<Double> lengths = new ArrayList<>();
    private final Map<String, Integer> documentFrequency = new HashMap<>();
    private final double averageLength;

    private ToolIndex(List<ObjectNode> tools) {
        this.source = tools;
        double total = 0;
        for (ObjectNode tool : tools) {
            Map<String, Double> terms = new HashMap<>();
            add(terms, Json.text(tool, "name"), NAME);
            add(terms, Json.text(tool, "title"), TITLE);
            add(terms, Json.text(tool, "description"), DESCRIPTION);
            JsonNode annotations = tool.get("annotations");
            if (annotations instanceof ObjectNode hints) {
                add(terms, Json.text(hints, "title"), TITLE);
                add(terms, hints.path("readOnlyHint").asBoolean(false) ? "read only" : null, ANNOTATION);
                add(terms, hints.path("destructiveHint").asBoolean(false) ? "destructive" : null, ANNOTATION);
                add(terms, hints.path("idempotentHint").asBoolean(false) ? "idempotent" : null, ANNOTATION);
                add(terms, hints.path("openWorldHint").asBoolean(false) ? "open world" : null, ANNOTATION);
            }
            JsonNode properties = tool.path("inputSchema").path("properties");
            if (properties instanceof ObjectNode arguments) {
                for (Map.Entry<String, JsonNode> argument : arguments.properties()) {
                    add(terms, argument.getKey(), ARGUMENT);
                    add(terms, Json.text(argument.getValue() instanceof ObjectNode o ? o : null, "description"),
                            ARGUMENT_DESCRIPTION);
                }
            }
            double length = terms.values().stream().mapToDouble(Double::doubleValue).sum();
            documents.add(terms);
            lengths.add(length);
            total += length;
            terms.keySet().forEach(term -> documentFrequency.merge(term, 1, Integer::sum));
        }
        averageLength = tools.isEmpty() ? 1 : Math.max(1, total / tools.size());
    }

    public static ToolIndex of(List<ObjectNode> tools) {
        return new ToolIndex(List.copyOf(tools));
    }

    /** True when this index was built from exactly these tools. */
    boolean indexes(List<ObjectNode> tools) {
        return source == tools || source.equals(tools);
    }

    public int size() {
        return source.size();
    }

    /** The best {@code limit} tools for {@code query}, best first; tools sharing no word with it are left out. */
    public List<Hit> search(String query, int limit) {
        List<String> words = terms(query);
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < documents.size(); i++) {
            double score = score(documents.get(i), lengths.get(i), words);
            if (score > 0) {
                hits.add(new Hit(source.get(i), score));
            }
        }
        hits.sort(Comparator.comparingDouble(Hit::score).reversed());
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : List.copyOf(hits);
    }

    private double score(Map<String, Double> document, double length, List<String> words) {
        double score = 0;
        for (String word : words) {
            Double frequency = document.get(word);
            if (frequency == null) {
                continue;
            }
            int holding = documentFrequency.get(word);
            double idf = Math.log(1 + (documents.size() - holding + 0.5) / (holding + 0.5));
            score += idf * frequency * (K1 + 1) / (frequency + K1 * (1 - B + B * length / averageLength));
        }
        return score;
    }

    private static void add(Map<String, Double> terms, String text, double weight) {
        if (text == null) {
            return;
        }
        for (String term : terms(text)) {
            terms.merge(term, weight, Double::sum);
        }
    }

    /** The words of {@code text} as the index keeps them; a query's words go through the same. */
    static List<String> terms(String text) {
        List<String> terms = new ArrayList<>();
        if (text == null) {
            return terms;
        }
        String split = text.replaceAll("([a-z0-9])([A-Z])", "$1 $2").replaceAll("([A-Z]+)([A-Z][a-z])", "$1 $2");
        for (String word : split.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!word.isEmpty() && !STOP.contains(word)) {
                terms.add(stem(word));
            }
        }
        return terms;
    }

    /** Strips the commonest English endings, so a word's forms meet: files/file, created/creating/create. */
    static String stem(String word) {
        String stem = word;
        if (stem.length() > 4 && stem.endsWith("ies")) {
            stem = stem.substring(0, stem.length() - 3) + "y";
        } else if (stem.endsWith("sses")) {
            stem = stem.substring(0, stem.length() - 2);
        } else if (stem.length() > 3 && stem.endsWith("s") && !stem.endsWith("ss") && !stem.endsWith("us")) {
            stem = stem.substring(0, stem.length() - 1);
        }
        if (stem.length() > 5 && stem.endsWith("ing")) {
            stem = stem.substring(0, stem.length() - 3);
        } else if (stem.length() > 4 && stem.endsWith("ed")) {
            stem = stem.substring(0, stem.length() - 2);
        }
        if (stem.length() > 4 && stem.endsWith("e")) {
            stem = stem.substring(0, stem.length() - 1);
        }
        return stem;
    }

    /** One ranked tool as hosts see it, and how well it matched. */
    public record Hit(ObjectNode tool, double score) {
    }
}
