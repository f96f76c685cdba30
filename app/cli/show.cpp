// `scanviz show` (show.hpp).
#include "cli/show.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "text_view.hpp"
#include "trace/trace_json.hpp"

namespace sv::cli {

Command add_show(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  auto* show = app.add_subcommand("show", "print a trace's steps like the slides");
  show->add_option("FILE", *file, "trace file (- for standard input)")->required();
  return {show, [file] {
    print_steps(std::cout, load_trace(*file));
    return 0;
  }};
}

}  // namespace sv::cli
