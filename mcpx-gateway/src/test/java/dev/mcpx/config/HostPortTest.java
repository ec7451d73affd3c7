package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class HostPortTest {

    @Test
    void aPortAloneBindsLoopback() {
        assertThat(HostPort.parse("8080")).contains(InetSocketAddress.createUnresolved("127.0.0.1", 8080));
        assertThat(HostPort.parse(":8080")).contains(InetSocketAddress.createUnresolved("127.0.0.1", 8080));
    }

    @Test
    void aNamedHostIsKept() {
        assertThat(HostPort.parse("0.0.0.0:80")).contains(InetSocketAddress.createUnresolved("0.0.0.0", 80));
        assertThat(HostPort.parse("[::1]:9")).contains(InetSocketAddress.createUnresolved("::1", 9));
    }

    @Test
    void nonsenseIsRefused() {
        assertThat(HostPort.parse("")).isEmpty();
        assertThat(HostPort.parse("99999999999")).isEmpty();
        assertThat(HostPort.parse("host:")).isEmpty();
        assertThat(HostPort.parse("::1:80")).isEmpty();
    }
}
