package dev.mcpx.front;

import dev.mcpx.protocol.Methods;

/** The {@code subscriptions/listen} filter flag that opts in to each list_changed notification. */
public final class SubscriptionFlags {

    private SubscriptionFlags() {
    }

    public static String of(String listChangedMethod) {
        return switch (listChangedMethod) {
            case Methods.TOOLS_LIST_CHANGED -> "toolsListChanged";
            case Methods.PROMPTS_LIST_CHANGED -> "promptsListChanged";
            case Methods.RESOURCES_LIST_CHANGED -> "resourcesListChanged";
            default -> "";
        };
    }
}
