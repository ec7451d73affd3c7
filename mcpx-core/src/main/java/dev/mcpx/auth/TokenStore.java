package dev.mcpx.auth;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where an {@link OAuthClient} keeps what outlives a connection: the tokens of a protected
 * resource and the client credentials registered at an authorization server (kept per issuer,
 * never reused at another). Entries are small JSON objects under string keys.
 */
public interface TokenStore {

    Optional<ObjectNode> read(String key);

    void write(String key, ObjectNode value);

    void remove(String key);

    /**
     * Held while one process renews the tokens under {@code key}; a store shared by processes on
     * several machines makes the others wait, so a refused token is renewed once, not once per
     * process. A store of one process needs nothing more than the client's own lock.
     */
    default Lease renewal(String key) {
        return () -> { };
    }

    /** Released at close. */
    interface Lease extends AutoCloseable {
        @Override
        void close();
    }

    /** A store that lives as long as the process. */
    static TokenStore inMemory() {
        ConcurrentHashMap<String, ObjectNode> entries = new ConcurrentHashMap<>();
        return new TokenStore() {
            @Override
            public Optional<ObjectNode> read(String key) {
                ObjectNode value = entries.get(key);
                return Optional.ofNullable(value == null ? null : value.deepCopy());
            }

            @Override
            public void write(String key, ObjectNode value) {
                entries.put(key, value.deepCopy());
            }

            @Override
            public void remove(String key) {
                entries.remove(key);
            }
        };
    }
}
