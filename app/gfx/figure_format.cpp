// figure_format.cpp — the figure file formats by name and extension (cairo_renderer.hpp's
// "Formats"), shared by the desktop's Cairo writer and the page's stand-in (web_figure_files.cpp),
// so both builds accept and name the same formats.
#include <string>

#include "gfx/cairo_renderer.hpp"
#include "poslab/io/output_file.hpp"

namespace poslab::gfx {

Result<FigureFormat> figureFormatFor(const std::string& path) {
    const std::string extension = fileExtension(path);
    if (extension == ".png") return FigureFormat::Png;
    if (extension == ".svg") return FigureFormat::Svg;
    if (extension == ".pdf") return FigureFormat::Pdf;
    return Error{"--out must end in .png, .svg or .pdf (got '" + path + "')"};
}

const char* figureFormatName(FigureFormat format) {
    switch (format) {
        case FigureFormat::Png:
            return "PNG";
        case FigureFormat::Svg:
            return "SVG";
        case FigureFormat::Pdf:
            return "PDF";
    }
    return "?";
}

}  // namespace poslab::gfx
