package dev.mcpx.front.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.FrontToken;
import dev.mcpx.front.http.AccessGuard.Reach;
import java.util.List;
import org.junit.jupiter.api.Test;

class AccessGuardTest {

    private static final FrontToken ALICE = new FrontToken("alice", "s3cret", FrontToken.Scope.ALL);
    private static final FrontToken CI = new FrontToken("ci", "another-one", FrontToken.Scope.ALL);
    private static final FrontToken PROMETHEUS = new FrontToken("prometheus", "read-only", FrontToken.Scope.MONITOR);

    private final AccessGuard loopback = new AccessGuard(List.of(ALICE), "127.0.0.1");

    @Test
    void onlyTheExactBearerTokenIsAccepted() {
        assertThat(status(loopback.authorize("Bearer s3cret", Reach.MCP, null))).isEqualTo(200);
        assertThat(status(loopback.authorize(" Bearer s3cret ", Reach.MCP, null))).isEqualTo(200);
        for (String wrong : new String[] {null, "", "Bearer s3cre", "Bearer s3crets", "Bearer S3CRET", "Basic s3cret",
                "s3cret", "bearer s3cret"}) {
            assertThat(status(loopback.authorize(wrong, Reach.MCP, null))).as(wrong).isEqualTo(401);
            assertThat(status(loopback.authorize(wrong, Reach.MONITORING, null))).as(wrong).isEqualTo(401);
        }
    }

    @Test
    void everyNamedTokenIsAcceptedAndTellsWhoItIs() {
        AccessGuard guard = new AccessGuard(List.of(ALICE, CI, PROMETHEUS), "0.0.0.0");

        assertThat(guard.match("Bearer s3cret")).isEqualTo(ALICE);
        assertThat(guard.match("Bearer another-one")).isEqualTo(CI);
        assertThat(guard.match("Bearer read-only")).isEqualTo(PROMETHEUS);
        assertThat(guard.match("Bearer nobody")).isNull();
    }

    @Test
    void aMonitoringTokenReadsStatusButIsForbiddenOnMcp() {
        AccessGuard guard = new AccessGuard(List.of(ALICE, PROMETHEUS), "0.0.0.0");

        assertThat(status(guard.authorize("Bearer read-only", Reach.MONITORING, null))).isEqualTo(200);
        assertThat(status(guard.authorize("Bearer read-only", Reach.MCP, null))).isEqualTo(403);
        assertThat(status(guard.authorize("Bearer s3cret", Reach.MONITORING, null))).isEqualTo(200);
        assertThat(status(guard.authorize(null, Reach.MONITORING, null))).isEqualTo(401);
    }

    @Test
    void withOnlyAMonitoringTokenMonitoringIsClosedAndMcpStaysAsItWas() {
        AccessGuard guard = new AccessGuard(List.of(PROMETHEUS), "127.0.0.1");

        assertThat(status(guard.authorize(null, Reach.MONITORING, null))).isEqualTo(401);
        assertThat(status(guard.authorize(null, Reach.MCP, null))).isEqualTo(200);
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
        AccessGuard everywhere = new AccessGuard(List.of(), "0.0.0.0");
        assertThat(everywhere.hostAllowed("gateway.internal:8080")).isTrue();
        assertThat(status(everywhere.authorize(null, Reach.MCP, null))).isEqualTo(200);
        assertThat(status(everywhere.authorize(null, Reach.MONITORING, null))).isEqualTo(200);
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

    private static int status(AccessGuard.Access access) {
        return switch (access) {
            case AccessGuard.Access.Allowed allowed -> 200;
            case AccessGuard.Access.Refused refused -> refused.status();
        };
    }
}
