package dev.mcpx.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/find-java beyond Linux: macOS's java_home and Windows' install folders and {@code where java},
 * faked on PATH (the script asks the platform's tools, so the fakes stand in for the platform).
 */
class FindJavaTest {

    @TempDir
    Path dir;

    private Script findJdk(Path fakeBin) throws Exception {
        return Script.run(dir, Map.of("PATH", fakeBin + ":/usr/bin:/bin"),
                List.of("bash", Script.root().resolve("bin/find-java").toString(), "--jdk"));
    }

    @Test
    void onMacOsItTakesTheJdkThatJavaHomeNamesForVersion21OrNewer() throws Exception {
        Path jdk = Script.fakeJavaHome(dir.resolve("Library/Java/JavaVirtualMachines/temurin-23.jdk/Contents/Home"),
                "23.0.2", "");
        Path fakeBin = dir.resolve("fake-bin");
        // answers only the question find-java must ask: a home for 21 or newer
        Script.write(fakeBin.resolve("java_home"),
                "[ \"$1\" = -v ] && [ \"$2\" = 21+ ] && echo '" + jdk + "' && exit 0\necho \"unexpected: $*\" >&2; exit 1");

        Script found = findJdk(fakeBin);

        assertThat(found.exitCode()).as(found.err()).isZero();
        assertThat(found.out().strip()).isEqualTo(jdk.toString());
    }

    @Test
    void withoutJavaHomeOnPathTheSameMachineFindsAnotherJdk() throws Exception {
        Script found = findJdk(dir.resolve("empty-bin"));

        assertThat(found.out().strip()).doesNotContain(dir.toString());
    }

    @Test
    void onWindowsItTakesTheJavaThatWhereFindsOnceNoJavaHomeIsSet() throws Exception {
        Path drive = dir.resolve("c");
        Path jdk = Script.fakeJavaHome(drive.resolve("Users/ada/jdk-22.0.1"), "22.0.1", ".exe");
        Path fakeBin = dir.resolve("fake-bin");
        Script.write(fakeBin.resolve("uname"), "echo MINGW64_NT-10.0-26100");
        // Windows' where prints Windows paths with CRLF line ends
        Script.write(fakeBin.resolve("where"),
                "[ \"$1\" = java ] || exit 1\nprintf 'C:\\\\Users\\\\ada\\\\jdk-22.0.1\\\\bin\\\\java.exe\\r\\n'");
        Script.write(fakeBin.resolve("cygpath"),
                "[ \"$1\" = -u ] || exit 1\nprintf '%s\\n' \"$2\" | sed 's|^C:|" + drive + "|; s|\\\\|/|g'");

        Script found = findJdk(fakeBin);

        assertThat(found.exitCode()).as(found.err()).isZero();
        assertThat(found.out().strip()).isEqualTo(jdk.toString());
    }

    @Test
    void aUsableJavaHomeIsTakenWithoutStartingAnyProcess() throws Exception {
        Path jdk = Script.fakeJavaHome(dir.resolve("jdk-25"), "25.0.1", "");

        // nothing on PATH: every sed, awk or sort find-java started would fail
        Script found = Script.run(dir, Map.of("PATH", dir.resolve("empty-bin").toString(), "JAVA_HOME", jdk + "/"),
                List.of("/bin/bash", Script.root().resolve("bin/find-java").toString(), "--jdk"));

        assertThat(found.exitCode()).as(found.err()).isZero();
        assertThat(found.out().strip()).isEqualTo(jdk.toString());
        assertThat(found.err()).isEmpty();
    }

    @Test
    void withoutJavaHomeAJdkUnderUsrLibJvmIsFoundWithNoProcessButUname() throws Exception {
        Script anyTool = Script.run(dir, Map.of("PATH", "/usr/bin:/bin"),
                List.of("/bin/bash", Script.root().resolve("bin/find-java").toString(), "--jdk"));
        assertThat(anyTool.out().strip()).as("this machine's JDK for the build, %s", anyTool.err()).startsWith("/usr/lib/jvm/");
        Path fakeBin = dir.resolve("only-uname");
        Script.write(fakeBin.resolve("uname"), "exec /usr/bin/uname \"$@\"");

        // no sort, cut, readlink or dirname on PATH: each would fail; the Windows check's uname is all it may start
        Script found = Script.run(dir, Map.of("PATH", fakeBin.toString()),
                List.of("/bin/bash", Script.root().resolve("bin/find-java").toString(), "--jdk"));

        assertThat(found.exitCode()).as(found.err()).isZero();
        assertThat(found.out().strip()).isEqualTo(anyTool.out().strip());
        assertThat(found.err()).isEmpty();
    }

    @Test
    void aJavaHomeOlderThan21IsPassedOverWhateverItsVersionLooksLike() throws Exception {
        for (String version : new String[] {"1.8.0_402", "17.0.15", "11"}) {
            Path old = Script.fakeJavaHome(dir.resolve("jdk-" + version), version, "");

            Script found = Script.run(dir, Map.of("PATH", "/usr/bin:/bin", "JAVA_HOME", old.toString()),
                    List.of("/bin/bash", Script.root().resolve("bin/find-java").toString()));

            assertThat(found.out().strip()).as(version).doesNotContain(dir.toString());
        }
    }
}
