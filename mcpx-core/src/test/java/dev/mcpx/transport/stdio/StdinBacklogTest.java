package dev.mcpx.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.RequestId;
import org.junit.jupiter.api.Test;

class StdinBacklogTest {

    private final StdinBacklog backlog = new StdinBacklog();

    @Test
    void whatTheChildHasNotAnsweredCountsAsUnreadUpToThePipesRoom() {
        backlog.written(1000, RequestId.of(1));
        backlog.written(1000, null);

        assertThat(backlog.unread()).isEqualTo(2000);
        assertThat(backlog.hasRoom(2096, 4096)).isTrue();
        assertThat(backlog.hasRoom(2097, 4096)).isFalse();
    }

    @Test
    void anAnswerMeansEverythingUpToItsRequestWasRead() {
        backlog.written(100, null);
        backlog.written(200, RequestId.of(1));
        backlog.written(300, RequestId.of(2));

        backlog.answered(RequestId.of(1));

        assertThat(backlog.unread()).isEqualTo(300);
    }

    @Test
    void aLaterRequestsAnswerCoversEarlierOnesAndAnEarlierOneNeverUndoesIt() {
        backlog.written(100, RequestId.of(1));
        backlog.written(100, RequestId.of(2));
        backlog.written(100, RequestId.of(3));

        backlog.answered(RequestId.of(2));
        assertThat(backlog.unread()).isEqualTo(100);
        backlog.answered(RequestId.of(1));
        assertThat(backlog.unread()).isEqualTo(100);
    }

    @Test
    void anAnswerToAnIdNeverWrittenTellsNothing() {
        backlog.written(500, RequestId.of(1));

        backlog.answered(RequestId.of(2));
        backlog.answered(RequestId.of("1"));

        assertThat(backlog.unread()).isEqualTo(500);
    }

    @Test
    void anIdWrittenTwiceCountsFromItsFirstLine() {
        backlog.written(100, RequestId.of(1));
        backlog.written(100, RequestId.of(2));
        backlog.written(100, RequestId.of(1));

        backlog.answered(RequestId.of(1));

        assertThat(backlog.unread()).isEqualTo(200);
    }
}
