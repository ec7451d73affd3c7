package dev.mcpx.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/library.md shows the examples' code as it is compiled: each block marked
 * {@code <!-- example: NAME -->} equals the region {@code tag::NAME[]} .. {@code end::NAME[]} of
 * LibraryExamples (without its common indentation), and every region is shown.
 */
class LibraryDocTest {

    private static final Pattern REGION = Pattern.compile(
            "\\n[ \\t]*// tag::([a-z-]+)\\[]\\n(.*?)\\n[ \\t]*// end::\\1\\[]", Pattern.DOTALL);
    private static final Pattern BLOCK = Pattern.compile(
            "<!-- example: ([a-z-]+) -->\\n```java\\n(.*?)\\n```", Pattern.DOTALL);

    @Test
    void everyExampleBlockOfTheDocIsTheCompiledRegion() throws IOException {
        Path module = Path.of(System.getProperty("user.dir"));
        Map<String, String> regions = matches(REGION,
                Files.readString(module.resolve("src/main/java/dev/mcpx/examples/LibraryExamples.java")), true);
        Map<String, String> blocks = matches(BLOCK, Files.readString(module.resolve("../docs/library.md")), false);

        assertThat(regions).isNotEmpty();
        assertThat(blocks).isEqualTo(regions);
    }

    private static Map<String, String> matches(Pattern pattern, String text, boolean dedent) {
        Map<String, String> found = new LinkedHashMap<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            String body = dedent ? dedent(matcher.group(2)) : matcher.group(2);
            assertThat(found.put(matcher.group(1), body)).as("two regions named " + matcher.group(1)).isNull();
        }
        return found;
    }

    private static String dedent(String region) {
        List<String> lines = region.lines().toList();
        int indent = lines.stream().filter(line -> !line.isBlank())
                .mapToInt(line -> line.length() - line.stripLeading().length()).min().orElse(0);
        return String.join("\n", lines.stream().map(line -> line.isBlank() ? "" : line.substring(indent)).toList());
    }
}
