package dev.mcpx.catalogue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Enough of RFC 6570 to tell whether a URI could have come from a resource template. */
record UriTemplate(String template, Pattern pattern) {

    private static final Pattern EXPRESSION = Pattern.compile("\\{([+#./;?&]?)[^}]*}");

    static UriTemplate of(String template) {
        StringBuilder regex = new StringBuilder();
        Matcher expression = EXPRESSION.matcher(template);
        int last = 0;
        while (expression.find()) {
            regex.append(Pattern.quote(template.substring(last, expression.start())));
            regex.append(switch (expression.group(1)) {
                case "+", "#" -> ".*";
                case "?", "&" -> "([?&].*)?";
                default -> "[^/?#&]*";
            });
            last = expression.end();
        }
        regex.append(Pattern.quote(template.substring(last)));
        return new UriTemplate(template, Pattern.compile(regex.toString()));
    }

    boolean matches(String uri) {
        return pattern.matcher(uri).matches();
    }
}
