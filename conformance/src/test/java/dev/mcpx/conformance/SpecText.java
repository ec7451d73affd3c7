package dev.mcpx.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Confirms that a row's sentence is quoted from its spec page, so a row cannot claim a requirement
 * the spec does not make. Markdown is flattened on both sides (emphasis, code ticks, links, line
 * breaks); {@code ...} in the sentence marks an elision, and the pieces must appear in order.
 */
final class SpecText {

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
        String text = flatPages.computeIfAbsent(row.spec(), k -> flatten(read(page)));
        int from = 0;
        for (String piece : row.sentence().split("\\.\\.\\.")) {
            String flat = flatten(piece);
            if (flat.isEmpty()) {
                continue;
            }
            int at = text.indexOf(flat, from);
            if (at < 0) {
                return "sentence not found in " + row.spec() + " (after flattening markdown): \"" + flat + "\"";
            }
            from = at + flat.length();
        }
        return null;
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
