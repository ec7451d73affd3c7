package dev.mcpx.front;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.MetaKeys;
import dev.mcpx.protocol.Methods;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.router.ResourceSubscriptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * A modern host's {@code subscriptions/listen} stream as a receiver of resource updates and list
 * changes: each tagged with the stream's subscription id, and none sent before the
 * acknowledgment (the spec's order), so what arrives while the stream is being set up waits for it.
 */
public final class ListenUpdates implements ResourceSubscriptions.Subscriber {

    private final RequestId subscriptionId;
    private final Consumer<JsonRpcMessage> send;
    /** Sending writes to the host, which may read slowly: a lock that does not pin a virtual thread's carrier. */
    private final ReentrantLock lock = new ReentrantLock();
    private List<JsonRpcMessage> held = new ArrayList<>();

    public ListenUpdates(RequestId subscriptionId, Consumer<JsonRpcMessage> send) {
        this.subscriptionId = subscriptionId;
        this.send = send;
    }

    @Override
    public void updated(ObjectNode params) {
        deliver(tagged(Methods.RESOURCES_UPDATED, params));
    }

    /** A {@code notifications/.../list_changed} the host agreed to hear. */
    public void listChanged(String method) {
        deliver(tagged(method, Json.object()));
    }

    private void deliver(Notification notification) {
        lock.lock();
        try {
            if (held != null) {
                held.add(notification);
            } else {
                send.accept(notification);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Sends the acknowledgment, then whatever arrived before it. */
    public void open(JsonRpcMessage acknowledgment) {
        lock.lock();
        try {
            send.accept(acknowledgment);
            held.forEach(send);
            held = null;
        } finally {
            lock.unlock();
        }
    }

    private Notification tagged(String method, ObjectNode params) {
        ObjectNode copy = params.deepCopy();
        copy.withObjectProperty(MetaKeys.META).set(MetaKeys.SUBSCRIPTION_ID, subscriptionId.toJson());
        return new Notification(method, copy);
    }
}
