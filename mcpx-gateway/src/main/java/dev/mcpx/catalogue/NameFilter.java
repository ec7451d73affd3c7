package dev.mcpx.catalogue;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Which of one kind of an upstream's names hosts may see and use: with an allow list, only the
 * names one of its globs matches; never a name a deny glob matches (deny wins). Globs match the
 * upstream's own name (before any prefix): {@code *} any run of characters, {@code ?} one.
 */
public record NameFilter(List<String> allow, List<String> deny) {

    public static final NameFilter ALL = new NameFilter(List.of(), List.of());

    public NameFilter {
        allow = List.copyOf(allow);
        deny = List.copyOf(deny);
    }

    public boolean admits(String name) {
        if (!allow.isEmpty() && allow.stream().noneMatch(glob -> matches(glob, name))) {
            return false;
        }
        return deny.stream().noneMatch(glob -> matches(glob, name));
    }

    static boolean matches(String glob, String name) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*' || c == '?') {
                if (!literal.isEmpty()) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (!literal.isEmpty()) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(name).matches();
    }
}
