package dev.mcpx.protocol;

/** The reserved {@code io.modelcontextprotocol/*} keys of {@code _meta} (2026-07-28). */
public final class MetaKeys {

    public static final String META = "_meta";
    public static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    public static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
    public static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    public static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";
    public static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
    public static final String LOG_LEVEL = "io.modelcontextprotocol/logLevel";
    public static final String PROGRESS_TOKEN = "progressToken";

    private MetaKeys() {
    }
}
