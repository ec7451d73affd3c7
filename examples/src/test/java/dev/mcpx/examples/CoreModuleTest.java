package dev.mcpx.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.client.McpClient;
import java.lang.module.ModuleDescriptor;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * mcpx-core's module descriptor, as its consumers get it (these tests run on the module path):
 * it exports its API packages, to everyone, and nothing else.
 */
class CoreModuleTest {

    private final Module core = McpClient.class.getModule();

    @Test
    void coreExportsTheClientTheProtocolTheTransportSpiAndOAuthOnly() {
        assertThat(core.isNamed()).as("mcpx-core runs as a named module here").isTrue();
        ModuleDescriptor descriptor = core.getDescriptor();

        assertThat(descriptor.name()).isEqualTo("dev.mcpx.core");
        assertThat(descriptor.exports()).allMatch(export -> !export.isQualified());
        assertThat(descriptor.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()))
                .isEqualTo(Set.of("dev.mcpx.auth", "dev.mcpx.client", "dev.mcpx.protocol", "dev.mcpx.transport"));
        assertThat(descriptor.opens()).isEmpty();
    }

    @Test
    void theConcreteTransportsAreInTheModuleButNotExported() {
        assertThat(core.getPackages()).contains("dev.mcpx.transport.http", "dev.mcpx.transport.stdio");
        assertThat(core.isExported("dev.mcpx.transport.http")).isFalse();
        assertThat(core.isExported("dev.mcpx.transport.stdio")).isFalse();
    }
}
