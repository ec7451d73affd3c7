package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AccessGuardTest {

    private final AccessGuard loopback = new AccessGuard("s3cret", "127.0.0.1");

    @Test
    void onlyTheExactBearerTokenIsAccepted() {
        assertThat(loopback.authorized("Bearer s3cret")).isTrue();
        assertThat(loopback.authorized(null)).isFalse();
        assertThat(loopback.authorized("")).isFalse();
        assertThat(loopback.authorized("Bearer s3cre")).isFalse();
        assertThat(loopback.authorized("Bearer s3crets")).isFalse();
        assertThat(loopback.authorized("Bearer S3CRET")).isFalse();
        assertThat(loopback.authorized("Basic s3cret")).isFalse();
        assertThat(loopback.authorized("s3cret")).isFalse();
    }

    @Test
    void aLoopbackBindAcceptsOnlyLocalHostHeaders() {
        assertThat(loopback.hostAllowed("127.0.0.1:8080")).isTrue();
        assertThat(loopback.hostAllowed("localhost")).isTrue();
        assertThat(loopback.hostAllowed("LOCALHOST:1")).isTrue();
        assertThat(loopback.hostAllowed("[::1]:8080")).isTrue();
        assertThat(loopback.hostAllowed("evil.example:8080")).isFalse();
        assertThat(loopback.hostAllowed("127.0.0.1.evil.example")).isFalse();
        assertThat(loopback.hostAllowed("localhost.evil.example:80")).isFalse();
        assertThat(loopback.hostAllowed(null)).isFalse();
    }

    @Test
    void aDeliberatelyPublicBindDoesNotJudgeHostNames() {
        AccessGuard everywhere = new AccessGuard(null, "0.0.0.0");
        assertThat(everywhere.hostAllowed("gateway.internal:8080")).isTrue();
        assertThat(everywhere.authorized(null)).isTrue();
    }

    @Test
    void foreignAndOpaqueOriginsAreRefused() {
        assertThat(loopback.originAllowed(null)).isTrue();
        assertThat(loopback.originAllowed("http://localhost:5173")).isTrue();
        assertThat(loopback.originAllowed("http://evil.example")).isFalse();
        assertThat(loopback.originAllowed("null")).isFalse();
        assertThat(loopback.originAllowed("http://localhost.evil.example")).isFalse();
        assertThat(loopback.originAllowed("::not a uri::")).isFalse();
    }
}
