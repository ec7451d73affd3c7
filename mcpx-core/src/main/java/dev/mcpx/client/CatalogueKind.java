package dev.mcpx.client;

/** The three lists an upstream offers, each invalidated on its own {@code list_changed}. */
public enum CatalogueKind {
    TOOLS,
    RESOURCES,
    PROMPTS
}
