package dev.mcpx.testkit.conformance;

/** All fixtures and their shared mutable state, the same for both eras. */
record Catalog(Tools tools, Prompts prompts, Resources resources, ChangeFeed changes, TaskStore tasks) {

    static final String SERVER_NAME = "mcpx-conformance-upstream";
    static final String SERVER_VERSION = "1.0.0";

    static Catalog create() {
        ChangeFeed changes = new ChangeFeed();
        RequestStates states = new RequestStates();
        return new Catalog(new Tools(changes, states), new Prompts(changes), new Resources(changes), changes,
                new TaskStore());
    }
}
