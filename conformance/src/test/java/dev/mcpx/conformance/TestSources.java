package dev.mcpx.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds a cited test in the test sources of the reactor's modules, so that a renamed or deleted
 * test is reported as "does not exist" rather than as a confusing "did not run".
 */
final class TestSources {

    private final Path root;
    private final Map<String, Optional<String>> sourceByClass = new HashMap<>();

    TestSources(Path root) {
        this.root = root;
    }

    /** Null when the method exists; otherwise what is missing. */
    String missing(TestRef test) {
        Optional<String> source = sourceByClass.computeIfAbsent(test.topLevelClassName(), this::load);
        if (source.isEmpty()) {
            return "no test class " + test.topLevelClassName() + " under */src/test/java";
        }
        Pattern declaration = Pattern.compile("\\bvoid\\s+" + Pattern.quote(test.method()) + "\\s*\\(");
        if (!declaration.matcher(source.get()).find()) {
            return "no method " + test.method() + " in " + test.topLevelClassName();
        }
        return null;
    }

    private Optional<String> load(String className) {
        String relative = "src/test/java/" + className.replace('.', '/') + ".java";
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
                Path file = module.resolve(relative);
                if (Files.isRegularFile(file)) {
                    return Optional.of(Files.readString(file));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the test sources under " + root, e);
        }
        return Optional.empty();
    }
}
