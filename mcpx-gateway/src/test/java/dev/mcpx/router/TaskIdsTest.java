package dev.mcpx.router;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.router.TaskIds.UpstreamTask;
import org.junit.jupiter.api.Test;

/** Host-facing task ids: two upstreams may mint the same id, and the host still names each apart. */
class TaskIdsTest {

    @Test
    void theSameIdFromTwoUpstreamsStaysTwoTasks() {
        String first = TaskIds.toHost("alpha", "task-1");
        String second = TaskIds.toHost("beta", "task-1");

        assertThat(first).isNotEqualTo(second);
        assertThat(TaskIds.fromHost(first)).contains(new UpstreamTask("alpha", "task-1"));
        assertThat(TaskIds.fromHost(second)).contains(new UpstreamTask("beta", "task-1"));
    }

    @Test
    void anyUpstreamNameAndIdRoundTrip() {
        String upstream = "my.server/ü 1";
        String taskId = "a.b.c/ü";

        assertThat(TaskIds.fromHost(TaskIds.toHost(upstream, taskId))).contains(new UpstreamTask(upstream, taskId));
        assertThat(TaskIds.toHost(upstream, "x")).matches("[A-Za-z0-9_-]+\\.x");
    }

    @Test
    void idsMcpxDidNotHandOutAreNotDecoded() {
        assertThat(TaskIds.fromHost("no-dot")).isEmpty();
        assertThat(TaskIds.fromHost(".leading-dot")).isEmpty();
        assertThat(TaskIds.fromHost("not base64!.task")).isEmpty();
    }
}
