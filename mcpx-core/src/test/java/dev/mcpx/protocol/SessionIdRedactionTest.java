package dev.mcpx.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A session id grants access to a session: messages and logs never carry it whole. */
class SessionIdRedactionTest {

    @Test
    void theExpiryMessageShowsOnlyAPrefixOfTheSessionId() {
        String id = "5f2b9c0e-6f1d-4c3a-9e8b-7a6d5c4b3a21";
        SessionExpiredException expired = new SessionExpiredException(id, 404, "Session not found");

        assertThat(expired.getMessage()).doesNotContain(id).doesNotContain(id.substring(4)).contains("5f2b…");
        assertThat(expired.sessionId()).isEqualTo(id);
    }

    @Test
    void shortIdsAreHiddenEntirely() {
        assertThat(SessionExpiredException.redact("abc123")).isEqualTo("…");
        assertThat(SessionExpiredException.redact(null)).isEqualTo("(none)");
    }
}
