package dev.mcpx.config;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Expands {@code ${VAR}} and {@code ${VAR:-default}} from an environment, as Claude Code does,
 * so secrets can stay out of the file. An undefined variable without a default is an error.
 */
final class VariableExpander {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");

    private final Map<String, String> environment;

    VariableExpander(Map<String, String> environment) {
        this.environment = environment;
    }

    /** The expanded text; {@code where} names the field for the error message. */
    String expand(String text, String where) {
        Matcher reference = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (reference.find()) {
            String value = environment.get(reference.group(1));
            if (value == null) {
                value = reference.group(2);
            }
            if (value == null) {
                throw new UndefinedVariable(reference.group(1), where);
            }
            reference.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        reference.appendTail(out);
        return out.toString();
    }

    /** Caught by the loader, which knows the file and the entry. */
    static final class UndefinedVariable extends RuntimeException {

        private static final long serialVersionUID = 1L;

        UndefinedVariable(String variable, String where) {
            super(where + " uses ${" + variable + "}, which is not set in the environment");
        }
    }
}
