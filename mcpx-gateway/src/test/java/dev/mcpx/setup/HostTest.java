package dev.mcpx.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each host's user-level config file on each OS, from HOME / USERPROFILE / APPDATA. */
class HostTest {

    private static final Map<String, String> UNIX = Map.of("HOME", "/home/ada");
    private static final Map<String, String> WINDOWS = Map.of("USERPROFILE", "C:/Users/ada", "APPDATA", "C:/Users/ada/AppData/Roaming");

    @Test
    void linuxPaths() {
        assertThat(Host.CLAUDE_DESKTOP.configFile(Os.LINUX, UNIX)).isEqualTo(Path.of("/home/ada/.config/Claude/claude_desktop_config.json"));
        assertThat(Host.CLAUDE_CODE.configFile(Os.LINUX, UNIX)).isEqualTo(Path.of("/home/ada/.claude.json"));
        assertThat(Host.CURSOR.configFile(Os.LINUX, UNIX)).isEqualTo(Path.of("/home/ada/.cursor/mcp.json"));
        assertThat(Host.VSCODE.configFile(Os.LINUX, UNIX)).isEqualTo(Path.of("/home/ada/.config/Code/User/mcp.json"));
        assertThat(Host.WINDSURF.configFile(Os.LINUX, UNIX)).isEqualTo(Path.of("/home/ada/.codeium/windsurf/mcp_config.json"));
    }

    @Test
    void linuxDesktopAppsFollowXdgConfigHome() {
        Map<String, String> xdg = Map.of("HOME", "/home/ada", "XDG_CONFIG_HOME", "/xdg");
        assertThat(Host.CLAUDE_DESKTOP.configFile(Os.LINUX, xdg)).isEqualTo(Path.of("/xdg/Claude/claude_desktop_config.json"));
        assertThat(Host.VSCODE.configFile(Os.LINUX, xdg)).isEqualTo(Path.of("/xdg/Code/User/mcp.json"));
        assertThat(Host.CURSOR.configFile(Os.LINUX, xdg)).isEqualTo(Path.of("/home/ada/.cursor/mcp.json"));
    }

    @Test
    void macosPaths() {
        Map<String, String> mac = Map.of("HOME", "/Users/ada");
        assertThat(Host.CLAUDE_DESKTOP.configFile(Os.MACOS, mac))
                .isEqualTo(Path.of("/Users/ada/Library/Application Support/Claude/claude_desktop_config.json"));
        assertThat(Host.VSCODE.configFile(Os.MACOS, mac)).isEqualTo(Path.of("/Users/ada/Library/Application Support/Code/User/mcp.json"));
        assertThat(Host.CLAUDE_CODE.configFile(Os.MACOS, mac)).isEqualTo(Path.of("/Users/ada/.claude.json"));
        assertThat(Host.CURSOR.configFile(Os.MACOS, mac)).isEqualTo(Path.of("/Users/ada/.cursor/mcp.json"));
        assertThat(Host.WINDSURF.configFile(Os.MACOS, mac)).isEqualTo(Path.of("/Users/ada/.codeium/windsurf/mcp_config.json"));
    }

    @Test
    void windowsPathsUseAppDataAndUserProfile() {
        assertThat(Host.CLAUDE_DESKTOP.configFile(Os.WINDOWS, WINDOWS))
                .isEqualTo(Path.of("C:/Users/ada/AppData/Roaming/Claude/claude_desktop_config.json"));
        assertThat(Host.VSCODE.configFile(Os.WINDOWS, WINDOWS)).isEqualTo(Path.of("C:/Users/ada/AppData/Roaming/Code/User/mcp.json"));
        assertThat(Host.CLAUDE_CODE.configFile(Os.WINDOWS, WINDOWS)).isEqualTo(Path.of("C:/Users/ada/.claude.json"));
        assertThat(Host.CURSOR.configFile(Os.WINDOWS, WINDOWS)).isEqualTo(Path.of("C:/Users/ada/.cursor/mcp.json"));
        assertThat(Host.WINDSURF.configFile(Os.WINDOWS, WINDOWS)).isEqualTo(Path.of("C:/Users/ada/.codeium/windsurf/mcp_config.json"));
    }

    @Test
    void hostsAreNamedAsOnTheCommandLine() {
        assertThat(Host.byId("claude-desktop")).contains(Host.CLAUDE_DESKTOP);
        assertThat(Host.byId("vscode")).contains(Host.VSCODE);
        assertThat(Host.byId("emacs")).isEmpty();
        assertThat(Host.VSCODE.serversKey()).isEqualTo("servers");
        assertThat(Host.WINDSURF.serversKey()).isEqualTo("mcpServers");
    }
}
