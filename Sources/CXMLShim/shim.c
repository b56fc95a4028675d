#include "CXMLShim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The soname of libxml2 2.x (Debian's libxml2).
#define CHIME_LIBXML2 "libxml2.so.2"

// libxml2's SAX handler (parser.h, struct _xmlSAXHandler): 27 callbacks of the first SAX
// version, then the SAX2 fields. Only the SAX2 element, text and error callbacks are set.
typedef struct {
    void *sax1[17];
    void (*characters)(void *, const unsigned char *, int);
    void (*ignorableWhitespace)(void *, const unsigned char *, int);
    void *more[6];
    void (*cdataBlock)(void *, const unsigned char *, int);
    void *externalSubset;
    unsigned int initialized;
    void *private_;
    void (*startElementNs)(void *, const unsigned char *localname, const unsigned char *prefix,
                           const unsigned char *uri, int namespaceCount, const unsigned char **namespaces,
                           int attributeCount, int defaultedCount, const unsigned char **attributes);
    void (*endElementNs)(void *, const unsigned char *localname, const unsigned char *prefix,
                         const unsigned char *uri);
    void (*serror)(void *, void *error);
} SAXHandler;

// The start of libxml2's struct _xmlError (xmlerror.h).
typedef struct {
    int domain;
    int code;
    char *message;
    int level;  // 1 warning, 2 error, 3 fatal
    char *file;
    int line;
} XMLError;

#define SAX2_MAGIC 0xDEEDBEAFu
#define PARSE_NONET (1 << 11)

static struct {
    void (*initParser)(void);
    void *(*createPushParser)(SAXHandler *, void *user, const char *chunk, int size, const char *filename);
    int (*useOptions)(void *parser, int options);
    int (*parseChunk)(void *parser, const char *chunk, int size, int terminate);
    void (*freeParser)(void *parser);
} xml;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_problem = "libxml2 was not loaded";
static char problem_text[512];

static void load(void) {
    void *library = dlopen(CHIME_LIBXML2, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(problem_text, sizeof problem_text, "libxml2 could not be loaded (%s); install the libxml2 package",
                 dlerror());
        load_problem = problem_text;
        return;
    }
#define FIND(field, name)                                                                                 \
    if (!(*(void **)&xml.field = dlsym(library, name))) {                                                 \
        snprintf(problem_text, sizeof problem_text, "%s has no %s: libxml2 is too old", CHIME_LIBXML2, name); \
        load_problem = problem_text;                                                                      \
        return;                                                                                           \
    }
    FIND(initParser, "xmlInitParser")
    FIND(createPushParser, "xmlCreatePushParserCtxt")
    FIND(useOptions, "xmlCtxtUseOptions")
    FIND(parseChunk, "xmlParseChunk")
    FIND(freeParser, "xmlFreeParserCtxt")
#undef FIND
    xml.initParser();
    load_problem = NULL;
}

const char *chime_xml_load(void) {
    pthread_once(&load_once, load);
    return load_problem;
}

struct ChimeXMLReader {
    ChimeXMLEvents events;
    void *parser;
    int failed;
    char problem[512];
};

static void on_start(void *user, const unsigned char *localname, const unsigned char *prefix, const unsigned char *uri,
                     int namespaceCount, const unsigned char **namespaces, int attributeCount, int defaultedCount,
                     const unsigned char **attributes) {
    (void)prefix, (void)namespaceCount, (void)namespaces, (void)defaultedCount;
    ChimeXMLReader *reader = user;
    const char *name = NULL;
    int nameLength = 0;
    // Each attribute is five pointers: local name, prefix, URI, value start, value end.
    for (int i = 0; i < attributeCount; i++) {
        const unsigned char **attribute = attributes + 5 * i;
        if (attribute[2] == NULL && strcmp((const char *)attribute[0], "name") == 0) {
            name = (const char *)attribute[3];
            nameLength = (int)(attribute[4] - attribute[3]);
            break;
        }
    }
    reader->events.start(reader->events.context, (const char *)localname, (const char *)uri, name, nameLength);
}

static void on_end(void *user, const unsigned char *localname, const unsigned char *prefix, const unsigned char *uri) {
    (void)prefix;
    ChimeXMLReader *reader = user;
    reader->events.end(reader->events.context, (const char *)localname, (const char *)uri);
}

static void on_text(void *user, const unsigned char *bytes, int length) {
    ChimeXMLReader *reader = user;
    reader->events.text(reader->events.context, (const char *)bytes, length);
}

// Keeps the first error (warnings are not kept), worded as libxml2 words it, with its line. Set
// as the handler's own error callback, it also keeps libxml2 from printing to stderr.
static void on_error(void *user, void *error) {
    ChimeXMLReader *reader = user;
    const XMLError *e = error;
    if (reader->failed || !e || e->level < 2) return;
    reader->failed = 1;
    const char *message = e->message ? e->message : "not well-formed XML";
    size_t length = strlen(message);
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == ' ')) length--;
    if (e->line > 0) {
        snprintf(reader->problem, sizeof reader->problem, "%.*s (line %d)", (int)length, message, e->line);
    } else {
        snprintf(reader->problem, sizeof reader->problem, "%.*s", (int)length, message);
    }
}

ChimeXMLReader *chime_xml_reader_new(ChimeXMLEvents events) {
    ChimeXMLReader *reader = calloc(1, sizeof *reader);
    if (reader) reader->events = events;
    return reader;
}

const char *chime_xml_reader_feed(ChimeXMLReader *reader, const char *bytes, int length, int final) {
    if (reader->failed) return reader->problem;
    if (!reader->parser) {
        // libxml2 guesses the encoding from the first four bytes, so they open the parser.
        SAXHandler handler;
        memset(&handler, 0, sizeof handler);
        handler.initialized = SAX2_MAGIC;
        handler.startElementNs = on_start;
        handler.endElementNs = on_end;
        handler.characters = on_text;
        handler.ignorableWhitespace = on_text;
        handler.cdataBlock = on_text;
        handler.serror = on_error;
        int head = length < 4 ? length : 4;
        reader->parser = xml.createPushParser(&handler, reader, bytes, head, NULL);
        if (!reader->parser) {
            reader->failed = 1;
            snprintf(reader->problem, sizeof reader->problem, "the XML parser could not be created (out of memory)");
            return reader->problem;
        }
        // No network; and no entity substitution from outside (XML_PARSE_NOENT and the DTD
        // loading options stay off, and no entity callbacks are set).
        xml.useOptions(reader->parser, PARSE_NONET);
        bytes += head;
        length -= head;
    }
    int code = xml.parseChunk(reader->parser, length > 0 ? bytes : NULL, length, final);
    if (code != 0 && !reader->failed) {
        reader->failed = 1;
        snprintf(reader->problem, sizeof reader->problem, "not well-formed XML (libxml2 error %d)", code);
    }
    return reader->failed ? reader->problem : NULL;
}

void chime_xml_reader_free(ChimeXMLReader *reader) {
    if (!reader) return;
    if (reader->parser) xml.freeParser(reader->parser);
    free(reader);
}
