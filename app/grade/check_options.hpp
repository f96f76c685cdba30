// `scanviz check`'s options as the command line gives them (docs/cli.md): one file graded, or a class.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sv {

struct CheckOptions {
  std::vector<std::string> files;  // kernels (.cu) or folders of them; more than one file, or a folder, is a class
  std::int32_t block = 0;
  bool exclusive = false, json = false, gpu = false;
  std::string launch;  // NAME<<<GRID, BLOCK, SHARED_BYTES>>>(ARGS), run/launch.hpp
  std::string sizes;   // the cases' sizes, "1,7,1024,2^12"
  std::string format;  // text, json, gradescope or junit (empty: text, or json with --json)
  std::string rubric;  // a rubric file (empty: the default rubric)
  std::string only;    // one rubric item: its output alone, and the exit code its pass (0) or fail (1)
  std::string out;     // the output's file, written whole (empty or -: standard output)
  // A class: submissions graded at once, each in a process of its own.
  int jobs = 0;           // 0: one a core
  double timeout = 600;   // seconds a submission may take
  std::string summary;    // the class table: FILE.csv or FILE.md
};

}  // namespace sv
