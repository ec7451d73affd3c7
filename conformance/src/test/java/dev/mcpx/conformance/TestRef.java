package dev.mcpx.conformance;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A test method cited as evidence: {@code dev.mcpx.client.SessionRecoveryTest#method} ({@code Outer$Inner} for nested classes). */
record TestRef(String className, String method) {

    private static final Pattern FORM = Pattern.compile("((?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*)#([a-zA-Z_][A-Za-z0-9_]*)");

    /** Null when the text is not of the form {@code package.Class#method}. */
    static TestRef parse(String text) {
        Matcher m = FORM.matcher(text.strip());
        return m.matches() ? new TestRef(m.group(1), m.group(2)) : null;
    }

    String simpleClassName() {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        return simple.replace('$', '.');
    }

    /** The top-level class, whose source file holds the method. */
    String topLevelClassName() {
        int nested = className.indexOf('$');
        return nested < 0 ? className : className.substring(0, nested);
    }

    @Override
    public String toString() {
        return className + "#" + method;
    }
}
