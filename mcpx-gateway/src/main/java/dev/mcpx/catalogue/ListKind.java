package dev.mcpx.catalogue;

import dev.mcpx.protocol.Methods;

/** The four lists an upstream offers and hosts page through. */
public enum ListKind {
    TOOLS(Methods.TOOLS_LIST, "tools", Methods.TOOLS_LIST_CHANGED, "tools"),
    PROMPTS(Methods.PROMPTS_LIST, "prompts", Methods.PROMPTS_LIST_CHANGED, "prompts"),
    RESOURCES(Methods.RESOURCES_LIST, "resources", Methods.RESOURCES_LIST_CHANGED, "resources"),
    RESOURCE_TEMPLATES(Methods.RESOURCES_TEMPLATES_LIST, "resourceTemplates", Methods.RESOURCES_LIST_CHANGED, "resources");

    private final String method;
    private final String field;
    private final String changedNotification;
    private final String capability;

    ListKind(String method, String field, String changedNotification, String capability) {
        this.method = method;
        this.field = field;
        this.changedNotification = changedNotification;
        this.capability = capability;
    }

    /** The list request, e.g. {@code tools/list}. */
    public String method() {
        return method;
    }

    /** The result's array field, e.g. {@code tools}. */
    public String field() {
        return field;
    }

    /** What hosts are told when this list changes. */
    public String changedNotification() {
        return changedNotification;
    }

    /** The server capability that says an upstream has this list at all. */
    public String capability() {
        return capability;
    }

    /** Tools and prompts get namespaced names; resources keep their URIs. */
    public boolean namespaced() {
        return this == TOOLS || this == PROMPTS;
    }

    public static ListKind ofMethod(String method) {
        for (ListKind kind : values()) {
            if (kind.method.equals(method)) {
                return kind;
            }
        }
        return null;
    }
}
