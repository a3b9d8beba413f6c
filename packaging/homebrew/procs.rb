# Homebrew formula of procs, installing the release archives that
# .goreleaser.yaml makes (no Go needed). After a release, update.sh sets
# the version and every sha256 from the release's checksums.txt:
#   packaging/homebrew/update.sh v1.2.3 dist/checksums.txt
# then copy this file to a tap (brew tap procsdev/tap) or install it as is:
#   brew install --formula ./packaging/homebrew/procs.rb
# .ci/run runs update.sh on a snapshot's checksums, so the archive names
# here and goreleaser's cannot drift apart.
class Procs < Formula
  desc "Local process composer: start processes in order, each gated on readiness"
  homepage "https://github.com/procsdev/procs"
  version "0.0.0"

  on_macos do
    on_arm do
      url "https://github.com/procsdev/procs/releases/download/v#{version}/procs_#{version}_darwin_arm64.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
    on_intel do
      url "https://github.com/procsdev/procs/releases/download/v#{version}/procs_#{version}_darwin_amd64.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
  end

  on_linux do
    on_arm do
      url "https://github.com/procsdev/procs/releases/download/v#{version}/procs_#{version}_linux_arm64.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
    on_intel do
      url "https://github.com/procsdev/procs/releases/download/v#{version}/procs_#{version}_linux_amd64.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
  end

  def install
    bin.install "procs"
    generate_completions_from_executable(bin/"procs", shell_parameter_format: :cobra)
  end

  test do
    assert_match "procs v#{version}", shell_output("#{bin}/procs --version")
    assert_match "no procs running", shell_output("#{bin}/procs status 2>&1", 3)
  end
end
