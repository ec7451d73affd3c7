package dev.mcpx.protocol;

import java.util.Set;

/** MCP method names mcpx acts on. */
public final class Methods {

    public static final String INITIALIZE = "initialize";
    public static final String INITIALIZED = "notifications/initialized";
    public static final String PING = "ping";
    public static final String DISCOVER = "server/discover";
    public static final String TOOLS_LIST = "tools/list";
    public static final String TOOLS_CALL = "tools/call";
    public static final String RESOURCES_LIST = "resources/list";
    public static final String RESOURCES_TEMPLATES_LIST = "resources/templates/list";
    public static final String RESOURCES_READ = "resources/read";
    public static final String RESOURCES_SUBSCRIBE = "resources/subscribe";
    public static final String RESOURCES_UNSUBSCRIBE = "resources/unsubscribe";
    public static final String PROMPTS_LIST = "prompts/list";
    public static final String PROMPTS_GET = "prompts/get";
    public static final String COMPLETION_COMPLETE = "completion/complete";
    public static final String LOGGING_SET_LEVEL = "logging/setLevel";
    public static final String SUBSCRIPTIONS_LISTEN = "subscriptions/listen";
    /** The tasks extension (2026-07-28): see {@link TasksExtension}. */
    public static final String TASKS_GET = "tasks/get";
    public static final String TASKS_UPDATE = "tasks/update";
    public static final String TASKS_CANCEL = "tasks/cancel";

    public static final String ROOTS_LIST = "roots/list";
    public static final String SAMPLING_CREATE_MESSAGE = "sampling/createMessage";
    public static final String ELICITATION_CREATE = "elicitation/create";
    /** 2025-11-25 only: an out-of-band interaction a URL-mode elicitation started is done. */
    public static final String ELICITATION_COMPLETE = "notifications/elicitation/complete";

    public static final String CANCELLED = "notifications/cancelled";
    public static final String PROGRESS = "notifications/progress";
    public static final String MESSAGE = "notifications/message";
    public static final String TOOLS_LIST_CHANGED = "notifications/tools/list_changed";
    public static final String RESOURCES_LIST_CHANGED = "notifications/resources/list_changed";
    public static final String PROMPTS_LIST_CHANGED = "notifications/prompts/list_changed";
    public static final String RESOURCES_UPDATED = "notifications/resources/updated";
    public static final String SUBSCRIPTIONS_ACKNOWLEDGED = "notifications/subscriptions/acknowledged";
    public static final String ROOTS_LIST_CHANGED = "notifications/roots/list_changed";

    /** Methods with no side effects by definition: safe to send twice (recovery Phase 2). */
    public static final Set<String> READ_SHAPED = Set.of(TOOLS_LIST, RESOURCES_LIST, RESOURCES_READ,
            RESOURCES_TEMPLATES_LIST, PROMPTS_LIST, PROMPTS_GET, COMPLETION_COMPLETE, DISCOVER, PING, TASKS_GET);

    private Methods() {
    }
}
