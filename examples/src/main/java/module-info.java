/** The library examples: a consumer of dev.mcpx.core that sees only what core exports. */
module dev.mcpx.examples {
    requires dev.mcpx.core;

    exports dev.mcpx.examples;
}
