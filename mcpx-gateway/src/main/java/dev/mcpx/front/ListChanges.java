package dev.mcpx.front;

import dev.mcpx.catalogue.Catalogue;
import dev.mcpx.catalogue.ListChange;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells connected hosts that a list changed, debounced: a burst of upstream changes (a restart
 * refreshing three lists, several upstreams coming up) becomes one notification per list.
 * Subscribers receive the {@code notifications/.../list_changed} methods to send to the hosts of
 * each profile: a change a profile's hosts cannot see is not sent to them.
 */
public final class ListChanges {

    private static final Logger LOG = LoggerFactory.getLogger(ListChanges.class);

    private final Duration debounce;
    /** The methods to send to the hosts of each profile ({@code ""}: those of {@code /mcp}). */
    public record Notice(Map<String, Set<String>> methodsByProfile) {

        public Notice {
            methodsByProfile = Map.copyOf(methodsByProfile);
        }

        /** What the hosts of {@code profile} (null: the default one) are told. */
        public Set<String> methods(String profile) {
            return methodsByProfile.getOrDefault(profile == null ? "" : profile, Set.of());
        }
    }

    private final List<Consumer<Notice>> subscribers = new CopyOnWriteArrayList<>();
    private final Map<String, Set<String>> pending = new HashMap<>();
    private boolean scheduled;

    public ListChanges(Catalogue catalogue, Duration debounce) {
        this.debounce = debounce;
        catalogue.onChange(this::changed);
    }

    /** Returns the unsubscribe action. */
    public Runnable subscribe(Consumer<Notice> subscriber) {
        subscribers.add(subscriber);
        return () -> subscribers.remove(subscriber);
    }

    private void changed(ListChange change) {
        synchronized (pending) {
            change.byProfile().forEach((profile, kinds) -> kinds.forEach(kind ->
                    pending.computeIfAbsent(profile, name -> new LinkedHashSet<>()).add(kind.changedNotification())));
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
        Notice notice;
        synchronized (pending) {
            notice = new Notice(pending);
            pending.clear();
            scheduled = false;
        }
        for (Consumer<Notice> subscriber : subscribers) {
            try {
                subscriber.accept(notice);
            } catch (RuntimeException e) {
                LOG.debug("a host could not be told about {}: {}", notice, e.toString());
            }
        }
    }
}
