package dev.mcpx.setup;

import java.util.Locale;

/** The operating systems whose host config locations differ. */
public enum Os {
    LINUX, MACOS, WINDOWS;

    public static Os current() {
        String name = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (name.startsWith("windows")) {
            return WINDOWS;
        }
        return name.startsWith("mac") || name.contains("darwin") ? MACOS : LINUX;
    }
}
