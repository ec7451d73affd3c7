package dev.mcpx.transport.http;

import dev.mcpx.transport.Transport;
import org.junit.jupiter.api.Nested;

/**
 * The transport tests again, with every request sent as the client sends it: its answer read by
 * the sender ({@link DirectPosts} on plain http) instead of by Jetty's client.
 */
class SenderCollectsTests {

    @Nested
    class LegacyAnswers extends LegacyHttpAnswersTest {
        @Override
        Transport wrap(Transport transport) {
            return new SenderCollects(transport);
        }
    }

    @Nested
    class Legacy extends LegacyHttpTransportTest {
        @Override
        Transport wrap(Transport transport) {
            return new SenderCollects(transport);
        }
    }

    @Nested
    class Modern extends ModernHttpTransportTest {
        @Override
        Transport wrap(Transport transport) {
            return new SenderCollects(transport);
        }
    }
}
