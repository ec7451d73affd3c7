package dev.mcpx.front;

import dev.mcpx.catalogue.Catalogue;
import dev.mcpx.catalogue.ListKind;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells connected hosts that a list changed, debounced: a burst of upstream changes (a restart
 * refreshing three lists, several upstreams coming up) becomes one notification per list.
 * Subscribers receive the {@code notifications/.../list_changed} methods to send.
 */
public final class ListChanges {

    private static final Logger LOG = LoggerFactory.getLogger(ListChanges.class);

    private final Duration debounce;
    private final List<Consumer<Set<String>>> subscribers = new CopyOnWriteArrayList<>();
    private final Set<String> pending = new LinkedHashSet<>();
    private boolean scheduled;

    public ListChanges(Catalogue catalogue, Duration debounce) {
        this.debounce = debounce;
        catalogue.onChange(this::changed);
    }

    /** Returns the unsubscribe action. */
    public Runnable subscribe(Consumer<Set<String>> subscriber) {
        subscribers.add(subscriber);
        return () -> subscribers.remove(subscriber);
    }

    private void changed(Set<ListKind> kinds) {
        synchronized (pending) {
            kinds.forEach(kind -> pending.add(kind.changedNotification()));
            if (scheduled) {
                return;
            }
            scheduled = true;
        }
        Thread.ofVirtual().name("mcpx-list-changes").start(this::flushAfterDebounce);
    }

    private void flushAfterDebounce() {
        try {
            Thread.sleep(debounce);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Set<String> methods;
        synchronized (pending) {
            methods = Set.copyOf(pending);
            pending.clear();
            scheduled = false;
        }
        for (Consumer<Set<String>> subscriber : subscribers) {
            try {
                subscriber.accept(methods);
            } catch (RuntimeException e) {
                LOG.debug("a host could not be told about {}: {}", methods, e.toString());
            }
        }
    }
}
