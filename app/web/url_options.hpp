// A link that opens a lesson: the page's query string (?algo=brent-kung&n=16&step=3) as the window's
// options, and the window's state as such a string, the same names as `scanviz gui`'s options. The
// lesson's keys are the run request's (run/request.hpp: set_field reads them, request_fields writes
// them), checked where the command line's are, so a bad one is one line on the page naming the key.
// The page is a front end of the window, as the command line is: it depends on the window's options
// type (gui/options.hpp), and nothing under app/gui knows the page.
#pragma once

#include <string>
#include <string_view>

#include "gui/options.hpp"

namespace sv::web {

// Sets the options the query names (the lesson's keys over options.lesson); returns a message naming
// the first key or value it cannot use, or an empty string. trace= and bench= leave their URLs in
// trace_path and bench_json.
std::string apply_query(std::string_view query, gui::GuiOptions& options);

// The other way: the query string ("?algo=...&step=2") that opens the lesson, step and views
// `options` names, for a link to where the window is: the lesson's fields that differ from the
// default lesson's, in the links' forms (input=random:SEED, scan=segmented:SHARE, ...).
// apply_query of it on default options gives `options` back.
std::string link_query(const gui::GuiOptions& options);

}  // namespace sv::web
