package dev.mcpx.testkit.stdio;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Which processes run which command, read from {@code /proc} (the JDK's own view cuts long command lines short). */
public final class CommandLines {

    private CommandLines() {
    }

    /** The live children of this JVM whose arguments are exactly {@code argv}. */
    public static List<ProcessHandle> childrenRunning(String... argv) {
        String wanted = String.join("\0", argv) + "\0";
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive)
                .filter(child -> of(child).equals(wanted)).toList();
    }

    /** The whole command line, arguments separated by NUL; empty once the process is gone. */
    public static String of(ProcessHandle process) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline"), StandardCharsets.ISO_8859_1);
        } catch (IOException gone) {
            return "";
        }
    }
}
