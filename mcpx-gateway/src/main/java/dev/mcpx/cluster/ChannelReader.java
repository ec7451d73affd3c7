package dev.mcpx.cluster;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Reads one Redis channel until closed: a subscription lost with its connection is made again
 * after a pause that doubles from 100 ms to 5 s, so a Redis outage costs a retry every few
 * seconds, not a storm.
 */
final class ChannelReader implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ChannelReader.class);
    private static final Duration FIRST_PAUSE = Duration.ofMillis(100);
    private static final Duration LONGEST_PAUSE = Duration.ofSeconds(5);

    private final Supplier<Jedis> connections;
    private final JedisPubSub listener;
    private final String channel;
    private final String what;
    private final BooleanSupplier closed;

    /** {@code connections}: a new connection for each subscription; {@code what}: the channel as a log line names it. */
    ChannelReader(Supplier<Jedis> connections, JedisPubSub listener, String channel, String what, BooleanSupplier closed) {
        this.connections = connections;
        this.listener = listener;
        this.channel = channel;
        this.what = what;
        this.closed = closed;
    }

    @Override
    public void run() {
        Duration pause = FIRST_PAUSE;
        while (!closed.getAsBoolean()) {
            try (Jedis connection = connections.get()) {
                connection.subscribe(listener, channel);
            } catch (JedisException e) {
                if (closed.getAsBoolean()) {
                    return;
                }
                LOG.warn("cluster: lost {} ({}); subscribing again in {} ms", what, e.getMessage(), pause.toMillis());
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException interrupted) {
                    return;
                }
                pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
            }
        }
    }
}
