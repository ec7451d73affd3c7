package dev.mcpx.front.http;

import java.util.Set;
import java.util.function.Consumer;

/**
 * Carries list changes between the replicas of a cluster: an upstream may tell only the replica
 * whose connection it notifies, while hosts listen on every replica.
 */
public interface ListChangeRelay {

    /** One process: there is no other replica to tell. */
    ListChangeRelay ALONE = new ListChangeRelay() {
        @Override
        public void publish(Set<String> methods) {
        }

        @Override
        public void onChangedElsewhere(Consumer<Set<String>> changed) {
        }
    };

    /** Tells the other replicas that these lists changed here ({@code notifications/.../list_changed} methods). */
    void publish(Set<String> methods);

    /** {@code changed} receives the list changes other replicas published. */
    void onChangedElsewhere(Consumer<Set<String>> changed);
}
