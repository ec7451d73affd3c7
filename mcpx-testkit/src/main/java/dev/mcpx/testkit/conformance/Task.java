package dev.mcpx.testkit.conformance;

import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.node.ObjectNode;

/**
 * One task of the tasks extension (SEP-2663): working, input_required (with the input requests
 * still unanswered), then completed, failed or cancelled. Cancelled is final: a worker that
 * finishes afterwards does not overwrite it.
 */
final class Task {

    static final int TTL_MS = 300_000;
    static final int POLL_INTERVAL_MS = 250;

    private final String id = "task-" + UUID.randomUUID();
    private final Instant createdAt = Instant.now();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition answered = lock.newCondition();
    private Instant lastUpdatedAt = createdAt;
    private String status = "working";
    private ObjectNode result;
    private ObjectNode error;
    private ObjectNode pending = Json.object();
    private final ObjectNode answers = Json.object();
    private Thread worker;

    String id() {
        return id;
    }

    void start(TaskWork work) {
        worker = Thread.ofVirtual().name(id).start(() -> {
            try {
                ObjectNode outcome = work.run(this);
                settle("completed", outcome, null);
            } catch (InterruptedException cancelled) {
                // cancel() already set the status
            } catch (RpcError.RpcException failed) {
                settle("failed", null, errorObject(failed.error()));
            } catch (RuntimeException crashed) {
                settle("failed", null, errorObject(RpcError.of(RpcError.INTERNAL_ERROR, "task crashed: " + crashed)));
            }
        });
    }

    /** Parks the task in input_required until every request is answered (in any number of updates). */
    ObjectNode ask(ObjectNode inputRequests) throws InterruptedException {
        lock.lock();
        try {
            pending = inputRequests.deepCopy();
            transition("input_required");
            while (!pending.isEmpty()) {
                if (isTerminal()) {
                    throw new InterruptedException("task " + status);
                }
                answered.await();
            }
            transition("working");
            ObjectNode responses = Json.object();
            inputRequests.propertyNames().forEach(key -> responses.set(key, answers.get(key)));
            return responses;
        } finally {
            lock.unlock();
        }
    }

    /** tasks/update: answers for pending keys are taken, unknown keys ignored. */
    void update(ObjectNode inputResponses) {
        lock.lock();
        try {
            inputResponses.properties().forEach(entry -> {
                if (pending.has(entry.getKey())) {
                    answers.set(entry.getKey(), entry.getValue());
                    pending.remove(entry.getKey());
                }
            });
            lastUpdatedAt = Instant.now();
            answered.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** tasks/cancel: idempotent; a terminal task stays as it is. */
    void cancel() {
        lock.lock();
        try {
            if (isTerminal()) {
                return;
            }
            transition("cancelled");
            pending = Json.object();
            answered.signalAll();
        } finally {
            lock.unlock();
        }
        if (worker != null) {
            worker.interrupt();
        }
    }

    /** The flat CreateTaskResult returned by the tools/call that started the task. */
    ObjectNode createResult() {
        lock.lock();
        try {
            return envelope().put("resultType", "task");
        } finally {
            lock.unlock();
        }
    }

    /** The DetailedTask of tasks/get: result when completed, error when failed, inputRequests when waiting. */
    ObjectNode detailed() {
        lock.lock();
        try {
            ObjectNode detailed = envelope().put("resultType", "complete");
            if (result != null) {
                detailed.set("result", result);
            }
            if (error != null) {
                detailed.set("error", error);
            }
            if (status.equals("input_required")) {
                detailed.set("inputRequests", pending.deepCopy());
            }
            return detailed;
        } finally {
            lock.unlock();
        }
    }

    private ObjectNode envelope() {
        return Json.object().put("taskId", id).put("status", status)
                .put("createdAt", createdAt.toString()).put("lastUpdatedAt", lastUpdatedAt.toString())
                .put("ttlMs", TTL_MS).put("pollIntervalMs", POLL_INTERVAL_MS);
    }

    private void settle(String terminal, ObjectNode outcome, ObjectNode failure) {
        lock.lock();
        try {
            if (isTerminal()) {
                return;
            }
            result = outcome;
            error = failure;
            transition(terminal);
        } finally {
            lock.unlock();
        }
    }

    private static ObjectNode errorObject(RpcError failure) {
        ObjectNode error = Json.object().put("code", failure.code()).put("message", failure.message());
        if (failure.data() != null) {
            error.set("data", failure.data());
        }
        return error;
    }

    private void transition(String next) {
        status = next;
        lastUpdatedAt = Instant.now();
    }

    private boolean isTerminal() {
        return status.equals("completed") || status.equals("failed") || status.equals("cancelled");
    }
}
