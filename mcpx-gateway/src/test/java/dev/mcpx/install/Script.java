package dev.mcpx.install;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A script of the repository (or a file made by a test) run as a child process, with what it printed. */
record Script(int exitCode, String out, String err) {

    /** The repository: tests run in the module's directory. */
    static Path root() {
        Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
        if (!Files.isRegularFile(root.resolve("bin/find-java"))) {
            throw new IllegalStateException("not in the mcpx repository: " + root);
        }
        return root;
    }

    /** Runs COMMAND with exactly ENVIRONMENT (nothing inherited), stdin empty, within a minute. */
    static Script run(Path directory, Map<String, String> environment, List<String> command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(environment);
        Path out = Files.createTempFile("script", ".out");
        Path err = Files.createTempFile("script", ".err");
        builder.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not exit within 60 s; stderr: " + Files.readString(err));
        }
        Script script = new Script(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return script;
    }

    /** Writes an executable shell script. */
    static Path write(Path file, String body) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /** A fake Java home: a bin/java (and javac) that exist and a release file naming the version. */
    static Path fakeJavaHome(Path home, String version, String executableSuffix) throws IOException {
        write(home.resolve("bin/java" + executableSuffix), "echo fake java; exit 1");
        write(home.resolve("bin/javac" + executableSuffix), "exit 1");
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\n");
        return home;
    }
}
