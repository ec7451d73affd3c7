package dev.mcpx.telemetry;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One scrape's body and its content type. OpenMetrics when the scraper's {@code Accept} names
 * {@code application/openmetrics-text} (Prometheus does), else the Prometheus text format 0.0.4;
 * the protobuf format is not offered.
 */
public record Scrape(String contentType, byte[] body) {

    private static final ExpositionFormats FORMATS = ExpositionFormats.init();

    static Scrape of(MetricSnapshots snapshots, String accept) {
        ExpositionFormatWriter writer = accept != null && accept.contains("application/openmetrics-text")
                ? FORMATS.getOpenMetricsTextFormatWriter() : FORMATS.getPrometheusTextFormatWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        try {
            writer.write(out, snapshots);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Scrape(writer.getContentType(), out.toByteArray());
    }

    /** Answers an HTTP request with this scrape. */
    public void send(Response response, Callback callback) {
        response.setStatus(200);
        response.getHeaders().put("Content-Type", contentType);
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}
