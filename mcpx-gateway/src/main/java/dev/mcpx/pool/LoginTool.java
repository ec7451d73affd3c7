package dev.mcpx.pool;

import dev.mcpx.config.UpstreamConfig;
import dev.mcpx.protocol.Json;
import dev.mcpx.transport.UpstreamEndpoint;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one tool an upstream lists while it waits for a login a user must give in a browser. Its
 * own tools are unknown until then, so without it a host would have nothing to call that leads
 * to the login: calling it is how a host that shows URLs offers the login to its user (the
 * router's part), and its description says what to run where a host cannot.
 */
public final class LoginTool {

    /** Its name under the upstream's prefix; an upstream's own tool of this name wins once it is up. */
    public static final String NAME = "mcpx_login";

    private LoginTool() {
    }

    /** Whether {@code config}'s upstream can wait for such a login: OAuth over HTTP with a user's grant. */
    public static boolean offeredFor(UpstreamConfig config) {
        return config.oauth() != null && !config.oauth().grant().unattended()
                && config.endpoint() instanceof UpstreamEndpoint.Http;
    }

    static ObjectNode descriptor(String upstream) {
        ObjectNode tool = Json.object().put("name", NAME).put("title", "Log in to " + upstream)
                .put("description", "The server \"" + upstream + "\" needs you to log in before its tools can be used. "
                        + "Call this tool to get a login link to open and approve; where no link can be shown, "
                        + "run `mcpx login " + upstream + "` in a terminal.");
        tool.putObject("inputSchema").put("type", "object").putObject("properties");
        tool.putObject("annotations").put("readOnlyHint", true).put("idempotentHint", true).put("openWorldHint", true);
        return tool;
    }

    /** What the tool answers once the upstream is up. */
    public static ObjectNode loggedIn(String upstream) {
        ObjectNode result = Json.object();
        result.putArray("content").addObject().put("type", "text")
                .put("text", "Logged in to " + upstream + ": its tools are listed now.");
        return result;
    }
}
