package dev.mcpx.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Confirms that a row's sentence is quoted from its spec page, so a row cannot claim a requirement
 * the spec does not make. Markdown is flattened on both sides (emphasis, code ticks, links, line
 * breaks); {@code ...} in the sentence marks an elision, and the pieces must appear in order.
 */
final class SpecText {

    /** Upper-case requirement keywords as RFC 2119 / RFC 8174 use them; MUST also finds MUST NOT. */
    private static final Pattern KEYWORD = Pattern.compile("\\b(MUST|REQUIRED)\\b");

    private final Path specRoot;
    private final Map<String, String> flatPages = new HashMap<>();

    SpecText(Path specRoot) {
        this.specRoot = specRoot;
    }

    boolean available() {
        return Files.isDirectory(specRoot);
    }

    /** Null when the sentence is on the page; otherwise what is wrong. */
    String problem(Requirement row) {
        Path page = specRoot.resolve(row.spec());
        if (!Files.isRegularFile(page)) {
            return "spec page " + row.spec() + " does not exist under " + specRoot;
        }
        String text = flatPage(row.spec());
        int from = 0;
        for (String piece : pieces(row.sentence())) {
            int at = text.indexOf(piece, from);
            if (at < 0) {
                return "sentence not found in " + row.spec() + " (after flattening markdown): \"" + piece + "\"";
            }
            from = at + piece.length();
        }
        return null;
    }

    /**
     * The requirement keywords on a page (each MUST, and REQUIRED) that no row's sentence spans,
     * as short excerpts; the rows must already be on their pages ({@link #problem} null).
     */
    List<String> unclaimedKeywords(String spec, List<Requirement> rows) {
        String text = flatPage(spec);
        List<int[]> spans = new ArrayList<>();
        for (Requirement row : rows) {
            if (!spec.equals(row.spec()) || row.sentence() == null || problem(row) != null) {
                continue;
            }
            int from = 0;
            for (String piece : pieces(row.sentence())) {
                int at = text.indexOf(piece, from);
                spans.add(new int[] {at, at + piece.length()});
                from = at + piece.length();
            }
        }
        List<String> unclaimed = new ArrayList<>();
        Matcher keyword = KEYWORD.matcher(text);
        while (keyword.find()) {
            int at = keyword.start();
            if (spans.stream().noneMatch(span -> span[0] <= at && at < span[1])) {
                unclaimed.add("\"..." + text.substring(Math.max(0, at - 60), Math.min(text.length(), at + 60)) + "...\"");
            }
        }
        return unclaimed;
    }

    private String flatPage(String spec) {
        return flatPages.computeIfAbsent(spec, k -> flatten(read(specRoot.resolve(k))));
    }

    private static List<String> pieces(String sentence) {
        List<String> pieces = new ArrayList<>();
        for (String piece : sentence.split("\\.\\.\\.")) {
            String flat = flatten(piece);
            if (!flat.isEmpty()) {
                pieces.add(flat);
            }
        }
        return pieces;
    }

    static String flatten(String markdown) {
        return markdown
                .replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1")  // [text](url)
                .replaceAll("\\[([^\\]]*)\\]\\[[^\\]]*\\]", "$1")  // [text][ref]
                .replaceAll("<sup>([^<]*)</sup>", "^$1")
                .replace("**", "")
                .replace("`", "")
                .replace("_", "")
                .replaceAll("(?m)^\\s*(?:[-*]|\\d+\\.)\\s+", " ")   // list markers
                .replaceAll("\\s+", " ")
                .strip();
    }

    private static String read(Path page) {
        try {
            return Files.readString(page);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + page, e);
        }
    }
}
