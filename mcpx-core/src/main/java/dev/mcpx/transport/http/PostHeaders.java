package dev.mcpx.transport.http;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/** The headers of one POST, in order, whichever client sends it. */
final class PostHeaders {

    private final List<String> names = new ArrayList<>(12);
    private final List<String> values = new ArrayList<>(12);

    /** Sets {@code name} to {@code value} alone, replacing any value it had (names compare in any case). */
    PostHeaders put(String name, String value) {
        for (int i = names.size() - 1; i >= 0; i--) {
            if (names.get(i).equalsIgnoreCase(name)) {
                names.remove(i);
                values.remove(i);
            }
        }
        return add(name, value);
    }

    /** Adds a value of {@code name} after any it has. */
    PostHeaders add(String name, String value) {
        names.add(name);
        values.add(value);
        return this;
    }

    /** The first value of {@code name}, or null. */
    String get(String name) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return values.get(i);
            }
        }
        return null;
    }

    void forEach(BiConsumer<String, String> each) {
        for (int i = 0; i < names.size(); i++) {
            each.accept(names.get(i), values.get(i));
        }
    }

    /**
     * Whether every name is an HTTP token and every value printable ASCII (spaces and tabs inside):
     * what {@link PlainConnection}'s requests carry as they are; anything else goes through
     * Jetty's client, which validates and encodes.
     */
    boolean plainAscii() {
        for (int i = 0; i < names.size(); i++) {
            if (!token(names.get(i)) || !printable(values.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean token(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean printable(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }
}
