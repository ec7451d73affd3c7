package dev.mcpx.transport.stdio;

import dev.mcpx.protocol.RequestId;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * How many bytes written to a child's stdin it may not have read yet, at most. A child reads its
 * stdin in order and answers a request only after reading it, so once it answers one, it has
 * read every byte up to that request's end. Only ids written and not yet passed count: an
 * answer to anything else tells nothing.
 */
final class StdinBacklog {

    /** A request's line and where it ended in the stdin stream. */
    private record Written(RequestId id, long end) {
    }

    private final ArrayDeque<Written> requests = new ArrayDeque<>();
    private long written;
    private long read;

    /** {@code bytes} went to stdin, a line for {@code request} (null: no request). */
    synchronized void written(int bytes, RequestId request) {
        written += bytes;
        if (request != null) {
            requests.addLast(new Written(request, written));
        }
    }

    /** The child answered {@code id}: it read up to that request's end, and so every earlier one's. */
    synchronized void answered(RequestId id) {
        for (Iterator<Written> it = requests.iterator(); it.hasNext(); ) {
            Written request = it.next();
            if (request.id().equals(id)) {
                read = Math.max(read, request.end());
                break;
            }
        }
        while (!requests.isEmpty() && requests.peekFirst().end() <= read) {
            requests.removeFirst();
        }
    }

    /** Whether {@code bytes} more fit in a pipe that holds {@code room} without the child reading anything. */
    synchronized boolean hasRoom(int bytes, int room) {
        return written - read + bytes <= room;
    }

    /** Bytes the child may not have read (tests). */
    synchronized long unread() {
        return written - read;
    }
}
