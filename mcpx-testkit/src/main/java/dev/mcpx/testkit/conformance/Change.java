package dev.mcpx.testkit.conformance;

/** Something a subscriber may be told about; uri is set for RESOURCE_UPDATED only. */
record Change(Kind kind, String uri) {

    enum Kind { TOOLS_LIST, PROMPTS_LIST, RESOURCES_LIST, RESOURCE_UPDATED }

    static Change of(Kind kind) {
        return new Change(kind, null);
    }
}
