package dev.mcpx.config;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the config file and hands every valid new version to a listener. Editors save by
 * rewriting or by renaming over the file, so the directory is watched and the content compared;
 * an invalid edit is logged and ignored (the running config stays).
 */
public final class ConfigWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigWatcher.class);
    private static final long SETTLE_MILLIS = 150;

    private final Path file;
    private final ConfigLoader loader;
    private final Consumer<GatewayConfig> listener;
    private volatile WatchService service;
    private String lastText;

    public ConfigWatcher(Path file, ConfigLoader loader, Consumer<GatewayConfig> listener) {
        this.file = file.toAbsolutePath();
        this.loader = loader;
        this.listener = listener;
        this.lastText = read();
    }

    public void start() {
        try {
            service = FileSystems.getDefault().newWatchService();
            file.getParent().register(service, StandardWatchEventKinds.ENTRY_CREATE,
                    StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE);
        } catch (IOException e) {
            LOG.warn("cannot watch {} for changes: {}", file, e.getMessage());
            return;
        }
        Thread.ofPlatform().daemon().name("mcpx-config-watcher").start(this::watch);
    }

    private void watch() {
        try {
            while (true) {
                WatchKey key = service.take();
                boolean ours = key.pollEvents().stream()
                        .anyMatch(event -> event.context() instanceof Path changed && changed.equals(file.getFileName()));
                key.reset();
                if (ours) {
                    TimeUnit.MILLISECONDS.sleep(SETTLE_MILLIS);
                    key.pollEvents();
                    check();
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            LOG.debug("config watcher stopped");
        }
    }

    private void check() {
        String text = read();
        if (text == null || text.equals(lastText)) {
            return;
        }
        lastText = text;
        try {
            listener.accept(loader.parse(text, file));
        } catch (ConfigException e) {
            LOG.error("config change ignored, the running config stays: {}", e.getMessage());
        }
    }

    private String read() {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() {
        WatchService current = service;
        if (current != null) {
            try {
                current.close();
            } catch (IOException e) {
                LOG.debug("closing the watch service: {}", e.getMessage());
            }
        }
    }
}
