// libxml2's streaming (SAX2) parser for Swift, loaded on first use.
//
// libxml2 is opened with dlopen by chime_xml_load, not linked: linked (as Foundation's XMLParser
// links it), it and the ICU libraries it needs were loaded by every chime command, a few
// milliseconds each start, though only CalDAV answers are XML. Its headers are not used either:
// the few declarations Chime needs are in shim.c, as libxml2 2.9 declares them (stable ABI,
// soname libxml2.so.2).
#ifndef CXMLSHIM_H
#define CXMLSHIM_H

// What a reader is told, in document order. Names are UTF-8, NUL-terminated; `uri` is NULL for
// an element in no namespace. `nameAttribute` is the element's un-namespaced `name` attribute
// (CalDAV's <comp name="VEVENT"/>), `nameLength` bytes long, or NULL.
typedef struct {
    void *context;
    void (*start)(void *context, const char *localName, const char *uri, const char *nameAttribute, int nameLength);
    void (*end)(void *context, const char *localName, const char *uri);
    void (*text)(void *context, const char *bytes, int length);
} ChimeXMLEvents;

typedef struct ChimeXMLReader ChimeXMLReader;

// Opens libxml2 and initialises it, once. NULL when it is ready, else why it is not.
const char *chime_xml_load(void);

// A reader for one document, or NULL when memory ran out. chime_xml_load must have succeeded.
// Entities are never loaded from files or the network, and libxml2's limits on entity
// expansion stay on.
ChimeXMLReader *chime_xml_reader_new(ChimeXMLEvents events);

// Parses the next `length` bytes (`final` non-zero with the last, which may be empty). NULL while
// the document is well formed so far; else the parser's first error, kept by the reader until it
// is freed (later calls return it again and parse nothing).
const char *chime_xml_reader_feed(ChimeXMLReader *reader, const char *bytes, int length, int final);

void chime_xml_reader_free(ChimeXMLReader *reader);

#endif
