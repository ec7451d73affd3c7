package dev.mcpx.front.http;

import dev.mcpx.front.ListChanges;
import java.util.function.Consumer;

/**
 * Carries list changes between the replicas of a cluster: an upstream may tell only the replica
 * whose connection it notifies, while hosts listen on every replica.
 */
public interface ListChangeRelay {

    /** One process: there is no other replica to tell. */
    ListChangeRelay ALONE = new ListChangeRelay() {
        @Override
        public void publish(ListChanges.Notice notice) {
        }

        @Override
        public void onChangedElsewhere(Consumer<ListChanges.Notice> changed) {
        }
    };

    /** Tells the other replicas which lists changed here, per profile ({@code notifications/.../list_changed} methods). */
    void publish(ListChanges.Notice notice);

    /** {@code changed} receives the list changes other replicas published. */
    void onChangedElsewhere(Consumer<ListChanges.Notice> changed);
}
