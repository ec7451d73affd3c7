package dev.mcpx.testkit.conformance;

/** One tool or prompt of the fixture server. Fails with {@link RpcError.RpcException}. */
@FunctionalInterface
interface Fixture {
    Outcome call(CallContext call) throws InterruptedException;
}
