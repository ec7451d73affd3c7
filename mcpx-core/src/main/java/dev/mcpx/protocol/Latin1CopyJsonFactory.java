package dev.mcpx.protocol;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import tools.jackson.core.JsonEncoding;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.SerializableString;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.IOContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonFactoryBuilder;
import tools.jackson.core.json.UTF8JsonGenerator;
import tools.jackson.core.json.UTF8StreamJsonParser;
import tools.jackson.core.sym.ByteQuadsCanonicalizer;
import tools.jackson.databind.DeserializationContext;

/**
 * Jackson's JSON factory, except that strings of ASCII and Latin-1 are read and written through
 * bytes: parsed from UTF-8 input without going through chars, and written with their plain start
 * copied whole (all of it for base64, which needs no escape). Text of tens of KB (a file or an image
 * a tool reads or writes) passes every hop twice each way, and at C1, as bin/mcpx runs on 2 cores,
 * Jackson's char-by-char loops for it were most of such a call's CPU. What is written is byte for
 * byte what Jackson writes; a string this cannot read or write as Jackson does is left to Jackson.
 *
 * <p>A tree read with the attribute {@link #KEEPS_LONG_STRINGS} keeps each long string as the bytes it
 * arrived in ({@link EncodedStringNode}), and a tree written here writes those bytes back: what is
 * written is then the string as its sender escaped it, which is the same string.
 */
final class Latin1CopyJsonFactory extends JsonFactory {

    /** Below this a written string is not worth its extra copy to bytes. */
    static final int MIN_COPIED_CHARS = 64;
    /**
     * The attribute of a tree read that keeps long strings as they arrived. Only trees: anything
     * else reading the token stream would meet a token it does not expect where a long string is.
     */
    static final Object KEEPS_LONG_STRINGS = EncodedStringNode.class;
    /**
     * From this many bytes a string is kept as it arrived. Shorter ones (names, ids, short texts)
     * are read more often than they are long, and cost little to decode and encode.
     */
    static final int MIN_KEPT_BYTES = 512;

    Latin1CopyJsonFactory() {
        this(JsonFactory.builder());
    }

    Latin1CopyJsonFactory(JsonFactoryBuilder settings) {
        super(settings);
    }

    private Latin1CopyJsonFactory(Latin1CopyJsonFactory source) {
        super(source);
    }

    @Override
    public JsonFactory copy() {
        return new Latin1CopyJsonFactory(this);
    }

    @Override
    protected JsonParser _createParser(ObjectReadContext readContext, IOContext io, byte[] data, int offset, int length) {
        if (!surelyUtf8(data, offset, length) || !TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES.enabledIn(_factoryFeatures)) {
            return super._createParser(readContext, io, data, offset, length);
        }
        _checkRangeBoundsForByteArray(data, offset, length);
        _streamReadConstraints.validateDocumentLength(length);
        io.setEncoding(JsonEncoding.UTF8);
        boolean keepsLongStrings = readContext instanceof DeserializationContext context
                && context.getAttribute(KEEPS_LONG_STRINGS) != null;
        return new Latin1CopyParser(readContext, io,
                readContext.getStreamReadFeatures(_streamReadFeatures),
                readContext.getFormatReadFeatures(_formatReadFeatures),
                _byteSymbolCanonicalizer.makeChild(_factoryFeatures), data, offset, offset + length, keepsLongStrings);
    }

    /**
     * What Jackson's encoding detection would call UTF-8 without a byte-order mark: a first byte of
     * JSON text is ASCII and not NUL, and neither is a second byte NUL (it is in UTF-16 and 32).
     */
    private static boolean surelyUtf8(byte[] data, int offset, int length) {
        return length >= 2 && data[offset] > 0 && data[offset + 1] != 0;
    }

    @Override
    protected JsonGenerator _createUTF8Generator(ObjectWriteContext writeContext, IOContext io, OutputStream out) {
        CharacterEscapes escapes = writeContext.getCharacterEscapes();
        if (escapes != null || _characterEscapes != null || _maximumNonEscapedChar != 0 || _quoteChar != '"') {
            return super._createUTF8Generator(writeContext, io, out);
        }
        return new Latin1CopyGenerator(writeContext, io,
                writeContext.getStreamWriteFeatures(_streamWriteFeatures),
                writeContext.getFormatWriteFeatures(_formatWriteFeatures), out,
                writeContext.getRootValueSeparator(_rootValueSeparator));
    }

    /**
     * Writes a string kept as it arrived as those bytes, when the generator is one of this factory's
     * and escapes nothing of its own; false, having written nothing, otherwise.
     */
    static boolean wroteEncoded(JsonGenerator generator, byte[] quoted) {
        return generator instanceof Latin1CopyGenerator copying && copying.wroteEncoded(quoted);
    }

    private static final class Latin1CopyParser extends UTF8StreamJsonParser {

        private final boolean keepsLongStrings;
        private EncodedStringNode kept;

        Latin1CopyParser(ObjectReadContext readContext, IOContext io, int streamFeatures, int formatFeatures,
                        ByteQuadsCanonicalizer names, byte[] data, int start, int end, boolean keepsLongStrings) {
            super(readContext, io, streamFeatures, formatFeatures, null, names, data, start, end, 0, false);
            this.keepsLongStrings = keepsLongStrings;
        }

        /** A long string, its opening quote consumed and nothing else yet, is handed to the tree as a node. */
        @Override
        public JsonToken nextToken() {
            JsonToken token = super.nextToken();
            if (token == JsonToken.VALUE_STRING && keepsLongStrings && _tokenIncomplete) {
                EncodedStringNode node = keptString();
                if (node != null) {
                    kept = node;
                    _tokenIncomplete = false;
                    _currToken = JsonToken.VALUE_EMBEDDED_OBJECT;
                    return _currToken;
                }
            }
            return token;
        }

        @Override
        public Object getEmbeddedObject() {
            return _currToken == JsonToken.VALUE_EMBEDDED_OBJECT && kept != null ? kept : super.getEmbeddedObject();
        }

        /**
         * The string at the read position as a node of its bytes, or null, having read nothing, when
         * it is short, or holds anything Jackson might refuse (a control character, an escape it
         * does not know, UTF-8 that is not well formed) or decode with a limit of its own.
         */
        private EncodedStringNode keptString() {
            byte[] in = _inputBuffer;
            int start = _inputPtr;
            int end = _inputEnd;
            if (end - start <= MIN_KEPT_BYTES) {
                return null;
            }
            int i = start;
            while (true) {
                i = ByteSearch.endOfPlainJsonText(in, i, end);
                if (i >= end) {
                    return null;
                }
                byte b = in[i];
                if (b == '"') {
                    break;
                }
                int special = b == '\\' ? escapeLength(in, i, end) : b < 0 ? utf8Length(in, i, end) : 0;
                if (special == 0) {
                    return null;
                }
                i += special;
            }
            int length = i - start;
            if (length < MIN_KEPT_BYTES || length > _streamReadConstraints.getMaxStringLength()) {
                return null;
            }
            _inputPtr = i + 1;
            return new EncodedStringNode(Arrays.copyOfRange(in, start - 1, i + 1));
        }

        /** The length of the escape at {@code at} (its backslash), or 0 for one JSON does not have. */
        private static int escapeLength(byte[] in, int at, int end) {
            if (at + 1 >= end) {
                return 0;
            }
            return switch (in[at + 1]) {
                case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> 2;
                case 'u' -> at + 6 <= end && hex(in, at + 2) >= 0 ? 6 : 0;
                default -> 0;
            };
        }

        /**
         * The length of the well-formed UTF-8 sequence at {@code at}, or 0: no overlong form, no
         * surrogate, nothing beyond U+10FFFF, nothing cut short.
         */
        private static int utf8Length(byte[] in, int at, int end) {
            int lead = in[at] & 0xFF;
            int length;
            int low = 0x80;
            int high = 0xBF;
            if (lead >= 0xC2 && lead <= 0xDF) {
                length = 2;
            } else if (lead >= 0xE0 && lead <= 0xEF) {
                length = 3;
                low = lead == 0xE0 ? 0xA0 : low;
                high = lead == 0xED ? 0x9F : high;
            } else if (lead >= 0xF0 && lead <= 0xF4) {
                length = 4;
                low = lead == 0xF0 ? 0x90 : low;
                high = lead == 0xF4 ? 0x8F : high;
            } else {
                return 0;
            }
            if (at + length > end) {
                return 0;
            }
            int second = in[at + 1] & 0xFF;
            if (second < low || second > high) {
                return 0;
            }
            for (int i = at + 2; i < at + length; i++) {
                if ((in[i] & 0xC0) != 0x80) {
                    return 0;
                }
            }
            return length;
        }

        /**
         * Called once per string value, its opening quote consumed. A char beyond Latin-1, a control
         * character, and an escape that is not valid or names a char beyond Latin-1 are left to
         * Jackson from the string's start, so that its errors stay Jackson's.
         */
        @Override
        protected String _finishAndReturnString() {
            byte[] in = _inputBuffer;
            int start = _inputPtr;
            int end = _inputEnd;
            boolean escaped = false;
            int i = start;
            while (true) {
                if (i >= end) {
                    return super._finishAndReturnString();
                }
                // the most common bytes first, in the fewest comparisons: each costs at C1
                byte b = in[i];
                if (b > '"' && b != '\\') {
                    i++;
                } else if (b == '"') {
                    break;
                } else if (b >= 0x20 && b != '\\') {
                    i++;
                } else if (b == '\\') {
                    // the byte after a backslash never closes the string
                    escaped = true;
                    i += 2;
                } else if (b < 0 && (b & 0xFE) == 0xC2 && i + 1 < end && (in[i + 1] & 0xC0) == 0x80) {
                    // a char of Latin-1 beyond ASCII (é, ü, ©, a no-break space) is two bytes
                    escaped = true;
                    i += 2;
                } else {
                    return super._finishAndReturnString();
                }
            }
            String text = escaped ? unescaped(in, start, i) : new String(in, start, i - start, StandardCharsets.ISO_8859_1);
            if (text == null) {
                return super._finishAndReturnString();
            }
            _streamReadConstraints.validateStringLength(text.length());
            _textBuffer.resetWithString(text);
            _inputPtr = i + 1;
            return text;
        }

        /**
         * The Latin-1 text of bytes with escapes or two-byte chars, the runs between them copied
         * whole; null when an escape is not one this reads.
         */
        private static String unescaped(byte[] in, int from, int to) {
            byte[] out = new byte[to - from];
            int length = 0;
            int run = from;
            int i = from;
            while (i < to) {
                if (in[i] >= 0x20 && in[i] != '\\') {
                    i++;
                    continue;
                }
                System.arraycopy(in, run, out, length, i - run);
                length += i - run;
                if (in[i] < 0) {
                    out[length++] = (byte) ((in[i] & 0x03) << 6 | in[i + 1] & 0x3F);
                    i += 2;
                    run = i;
                    continue;
                }
                byte kind = in[i + 1];
                int c = switch (kind) {
                    case '"', '\\', '/' -> kind;
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case 't' -> '\t';
                    case 'u' -> i + 6 <= to ? hex(in, i + 2) : -1;
                    default -> -1;
                };
                if (c < 0 || c > 0xFF) {
                    return null;
                }
                out[length++] = (byte) c;
                i += kind == 'u' ? 6 : 2;
                run = i;
            }
            System.arraycopy(in, run, out, length, to - run);
            length += to - run;
            return new String(out, 0, length, StandardCharsets.ISO_8859_1);
        }

        /** The value of four hex digits at {@code at}, or -1. */
        private static int hex(byte[] in, int at) {
            int value = 0;
            for (int i = at; i < at + 4; i++) {
                int digit = Character.digit(in[i], 16);
                if (digit < 0) {
                    return -1;
                }
                value = value << 4 | digit;
            }
            return value;
        }
    }

    private static final class Latin1CopyGenerator extends UTF8JsonGenerator {

        /**
         * Per Latin-1 byte: 0 when Jackson writes it as it is, the letter after the backslash for the
         * escapes it writes short, {@link #BEYOND_ASCII}, and -1 for the rest (control characters it
         * writes as backslash-u, and '?' to check against the text).
         */
        private static final int[] ESCAPE = new int[256];
        /** Every how many chars a text is sampled for a char beyond Latin-1. */
        private static final int PROBE_STEP = 61;
        /** A char of Latin-1 beyond ASCII: two bytes of UTF-8. */
        private static final int BEYOND_ASCII = -2;

        static {
            for (int b = 0; b < 256; b++) {
                ESCAPE[b] = switch (b) {
                    case '"', '\\' -> b;
                    case '\n' -> 'n';
                    case '\t' -> 't';
                    case '\r' -> 'r';
                    case '\b' -> 'b';
                    case '\f' -> 'f';
                    default -> b >= 0x80 ? BEYOND_ASCII : b < 0x20 || b == '?' ? -1 : 0;
                };
            }
        }

        Latin1CopyGenerator(ObjectWriteContext writeContext, IOContext io, int streamFeatures, int formatFeatures,
                           OutputStream out, SerializableString rootSeparator) {
            super(writeContext, io, streamFeatures, formatFeatures, out, rootSeparator, null, null, 0, '"');
        }

        /** A string kept as it arrived, written as its bytes unless this writer has escapes of its own. */
        boolean wroteEncoded(byte[] quoted) {
            if (_characterEscapes != null || _maximumNonEscapedChar != 0 || _outputEscapes['/'] != 0) {
                return false;
            }
            writeRawUTF8String(quoted, 1, quoted.length - 2);
            return true;
        }

        /** A writer with its own escapes (of '/', of every char beyond ASCII, custom ones) is Jackson's to run. */
        @Override
        public JsonGenerator writeString(String text) {
            if (text != null && text.length() >= MIN_COPIED_CHARS && _characterEscapes == null
                    && _maximumNonEscapedChar == 0 && _outputEscapes['/'] == 0 && wroteLatin1(text)) {
                return this;
            }
            return super.writeString(text);
        }

        /**
         * Writes the text through its Latin-1 bytes (a copy for text held as Latin-1): the plain
         * start copied whole, the rest a byte at a time with Jackson's escapes and UTF-8, where a '?'
         * that is not the text's own stands for a char beyond Latin-1. False, having written nothing,
         * for text with a surrogate or more escapes than the buffer has room for.
         */
        private boolean wroteLatin1(String text) {
            // text in a script beyond Latin-1 shows in a sample, before a pass over all of it
            for (int i = 0; i < text.length(); i += PROBE_STEP) {
                if (text.charAt(i) > 0xFF) {
                    return false;
                }
            }
            byte[] latin1 = text.getBytes(StandardCharsets.ISO_8859_1);
            if (latin1.length != text.length()) {
                return false;
            }
            int plain = 0;
            while (plain < latin1.length && ESCAPE[latin1[plain] & 0xFF] == 0) {
                plain++;
            }
            if (plain == latin1.length) {
                writeRawUTF8String(latin1, 0, latin1.length);
                return true;
            }
            // room for an escape or a char beyond ASCII in every four chars; text with more is left to Jackson
            byte[] out = new byte[latin1.length + latin1.length / 4 + 16];
            System.arraycopy(latin1, 0, out, 0, plain);
            int length = plain;
            int room = out.length - 2;
            for (int i = plain; i < latin1.length; i++) {
                byte b = latin1[i];
                int escape = ESCAPE[b & 0xFF];
                if (escape == 0) {
                    out[length++] = b;
                } else if (escape == BEYOND_ASCII) {
                    out[length++] = (byte) (0xC0 | (b & 0xFF) >> 6);
                    out[length++] = (byte) (0x80 | b & 0x3F);
                } else if (escape > 0) {
                    out[length++] = '\\';
                    out[length++] = (byte) escape;
                } else if (b == '?') {
                    length = writeQuestionMark(text.charAt(i), out, length);
                    if (length < 0) {
                        return false;
                    }
                } else {
                    return false;
                }
                if (length >= room) {
                    return false;
                }
            }
            writeRawUTF8String(out, 0, length);
            return true;
        }

        /**
         * Writes what Latin-1 encoded as '?': the text's own '?', or a char beyond Latin-1 as two
         * or three bytes of UTF-8 (an em dash, a curly quote); -1 for a surrogate, left to Jackson.
         */
        private static int writeQuestionMark(char c, byte[] out, int at) {
            if (c == '?') {
                out[at++] = '?';
            } else if (Character.isSurrogate(c)) {
                return -1;
            } else if (c < 0x800) {
                out[at++] = (byte) (0xC0 | c >> 6);
                out[at++] = (byte) (0x80 | c & 0x3F);
            } else {
                out[at++] = (byte) (0xE0 | c >> 12);
                out[at++] = (byte) (0x80 | c >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | c & 0x3F);
            }
            return at;
        }
    }
}
