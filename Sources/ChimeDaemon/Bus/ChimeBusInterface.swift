extension ChimeBusAPI {
    /// The interface as exported: `Config/io.github.chime.Chime1.xml`, which is installed for
    /// clients (a test keeps the two the same).
    static let introspectionXML = #"""
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <!-- Chime's D-Bus service: bus name io.github.chime.Chime, object /io/github/chime/Chime1.
             Every method but the two access ones needs the caller's access to the entity type it touches
             (error io.github.chime.Chime1.Error.NotAuthorized otherwise). Data comes back as JSON text in
             the shapes `chime` prints as JSON. See docs/dbus.md. -->
        <node>
          <interface name="io.github.chime.Chime1">
            <!-- "notDetermined", "restricted", "denied" or "authorized"; entity_type is "event" or "reminder". -->
            <method name="GetAuthorizationStatus">
              <arg name="entity_type" type="s" direction="in"/>
              <arg name="status" type="s" direction="out"/>
            </method>
            <!-- Answers at once. When status is "notDetermined" the user is being asked, and the answer
                 comes as the Response signal carrying this handle. -->
            <method name="RequestAccess">
              <arg name="entity_type" type="s" direction="in"/>
              <arg name="handle" type="o" direction="out"/>
              <arg name="status" type="s" direction="out"/>
            </method>
            <signal name="Response">
              <arg name="handle" type="o"/>
              <arg name="entity_type" type="s"/>
              <arg name="status" type="s"/>
            </signal>
            <!-- Changed and AlarmFired are sent to subscribed connections only, each with what it may see.
                 Returns the change journal's sequence now. -->
            <method name="Subscribe">
              <arg name="sequence" type="t" direction="out"/>
            </method>
            <method name="Unsubscribe"/>
            <!-- The journal entries after a sequence (from Subscribe or a Changed signal), the caller's
                 entity types only: {"last_sequence", "truncated", "changes": [{sequence, entity, id, kind}]}.
                 "truncated": entries were compacted away since; read everything again. -->
            <method name="Changes">
              <arg name="after" type="t" direction="in"/>
              <arg name="changes_json" type="s" direction="out"/>
            </method>
            <!-- A commit by any process: the journal sequence to resume from, and the entity types touched. -->
            <signal name="Changed">
              <arg name="sequence" type="t"/>
              <arg name="entity_types" type="as"/>
            </signal>
            <signal name="AlarmFired">
              <arg name="alarm_json" type="s"/>
            </signal>
            <!-- As chime calendar list (JSON), for the entity types the caller may use. -->
            <method name="Calendars">
              <arg name="calendars_json" type="s" direction="out"/>
            </method>
            <!-- As chime agenda (JSON): occurrences from start to end (seconds since 1970, UTC). -->
            <method name="Events">
              <arg name="start" type="x" direction="in"/>
              <arg name="end" type="x" direction="in"/>
              <arg name="occurrences_json" type="s" direction="out"/>
            </method>
            <!-- As chime reminders (JSON) completed: the done ones, most recent first. -->
            <method name="Reminders">
              <arg name="completed" type="b" direction="in"/>
              <arg name="reminders_json" type="s" direction="out"/>
            </method>
            <!-- As chime show REF (JSON): an ID, a unique prefix, ID@OCCURRENCE or a title. -->
            <method name="Item">
              <arg name="reference" type="s" direction="in"/>
              <arg name="item_json" type="s" direction="out"/>
            </method>
            <!-- As chime alarms (JSON) for the next hours, for the entity types the caller may use. -->
            <method name="UpcomingAlarms">
              <arg name="hours" type="u" direction="in"/>
              <arg name="alarms_json" type="s" direction="out"/>
            </method>
            <!-- fields: title, start (required), end or duration, all_day, calendar, notes, location, url,
                 time_zone; dates as chime add reads them. Returns the saved event as chime show (JSON). -->
            <method name="AddEvent">
              <arg name="fields" type="a{ss}" direction="in"/>
              <arg name="event_json" type="s" direction="out"/>
            </method>
            <!-- fields: title (required), due, start, list, notes, priority, time_zone. -->
            <method name="AddReminder">
              <arg name="fields" type="a{ss}" direction="in"/>
              <arg name="reminder_json" type="s" direction="out"/>
            </method>
            <!-- fields: title, notes, location, url (empty clears), and for reminders due and priority.
                 span: "this" or "future" for ID@OCCURRENCE of a repeating event; without an occurrence the
                 whole series changes. Returns the item as saved. -->
            <method name="Edit">
              <arg name="reference" type="s" direction="in"/>
              <arg name="fields" type="a{ss}" direction="in"/>
              <arg name="span" type="s" direction="in"/>
              <arg name="item_json" type="s" direction="out"/>
            </method>
            <!-- span: "this" or "future" (for ID@OCCURRENCE of a recurring event). -->
            <method name="Remove">
              <arg name="reference" type="s" direction="in"/>
              <arg name="span" type="s" direction="in"/>
            </method>
            <!-- Completes a reminder (a repeating one moves to its next instance); returns the completed one. -->
            <method name="Complete">
              <arg name="reference" type="s" direction="in"/>
              <arg name="reminder_json" type="s" direction="out"/>
            </method>
            <method name="Uncomplete">
              <arg name="reference" type="s" direction="in"/>
              <arg name="reminder_json" type="s" direction="out"/>
            </method>
            <!-- A firing AlarmFired named (one of its keys), answered as its notification's buttons do.
                 choice: "10m", "1h", "tomorrow 9:00"; empty: the first configured snooze choice. -->
            <method name="Snooze">
              <arg name="key" type="s" direction="in"/>
              <arg name="choice" type="s" direction="in"/>
            </method>
            <method name="Dismiss">
              <arg name="key" type="s" direction="in"/>
            </method>
          </interface>
        </node>

        """#
}
