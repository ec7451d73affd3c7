package dev.mcpx.testkit.chaos;

/** What {@link ChaosProxy} does to one TCP connection between a client and an upstream. */
public sealed interface ConnectionFault {

    /** Short name for summaries. */
    String kind();

    /** Bytes flow both ways untouched. */
    record Pass() implements ConnectionFault {
        public String kind() {
            return "pass";
        }
    }

    /**
     * The request reaches the upstream; the response is cut after {@code afterBytes} bytes
     * (0: before the status line, larger than the response: on the next exchange of a kept-alive connection).
     */
    record Cut(int afterBytes) implements ConnectionFault {
        public String kind() {
            return "cut";
        }
    }

    /** The request reaches the upstream; not one byte of the response comes back, ever. */
    record Stall() implements ConnectionFault {
        public String kind() {
            return "stall";
        }
    }

    /**
     * The response's status line and headers come through, then not one byte more: a JSON body
     * or an SSE stream that stalls after the upstream has said 200.
     */
    record StallBody() implements ConnectionFault {
        public String kind() {
            return "stall-body";
        }
    }

    /** Every chunk of the response is held back {@code delayMillis} first. */
    record Slow(long delayMillis) implements ConnectionFault {
        public String kind() {
            return "slow";
        }
    }
}
