# make install PREFIX=/usr/local: the release binary (Swift runtime linked in, so it runs without
# the toolchain) to PREFIX/bin, the bundled skills to PREFIX/share/skill/skills (where the
# installed binary looks for them), the sentence encoder's model file and its NOTICE to
# PREFIX/share/skill/model (made by scripts/setup), shell completions for bash, zsh and fish, and a
# man page; and skill-http beside skill (`skill serve --http` runs it; it brings SwiftNIO, so it is
# built apart).
PREFIX ?= /usr/local
SHARE := $(DESTDIR)$(PREFIX)/share
BIN := .build/release/skill
HTTP_BIN := .build/release/skill-http
MAN := .build/plugins/GenerateManual/outputs/skill/skill.1

.PHONY: build install uninstall test

build:
	scripts/setup
	swift build -c release --product skill --static-swift-stdlib

# The man page first: swift-argument-parser's plugin builds the package in release mode without
# --static-swift-stdlib, and the build after it links the binary that is installed.
install:
	scripts/setup
	swift package generate-manual
	swift build -c release --product skill --static-swift-stdlib
	swift build -c release --product skill-http --static-swift-stdlib
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(SHARE)/skill" "$(SHARE)/man/man1" \
		"$(SHARE)/bash-completion/completions" "$(SHARE)/zsh/site-functions" "$(SHARE)/fish/vendor_completions.d"
	install -m 0755 $(BIN) "$(DESTDIR)$(PREFIX)/bin/skill"
	install -m 0755 $(HTTP_BIN) "$(DESTDIR)$(PREFIX)/bin/skill-http"
	rm -rf "$(SHARE)/skill/skills"
	cp -R skills "$(SHARE)/skill/skills"
	install -d "$(SHARE)/skill/model"
	install -m 0644 model/all-MiniLM-L6-v2.skm model/NOTICE "$(SHARE)/skill/model/"
	$(BIN) --generate-completion-script bash > "$(SHARE)/bash-completion/completions/skill"
	$(BIN) --generate-completion-script zsh > "$(SHARE)/zsh/site-functions/_skill"
	$(BIN) --generate-completion-script fish > "$(SHARE)/fish/vendor_completions.d/skill.fish"
	install -m 0644 $(MAN) "$(SHARE)/man/man1/skill.1"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/skill" "$(DESTDIR)$(PREFIX)/bin/skill-http" "$(SHARE)/man/man1/skill.1" "$(SHARE)/bash-completion/completions/skill" \
		"$(SHARE)/zsh/site-functions/_skill" "$(SHARE)/fish/vendor_completions.d/skill.fish"
	rm -rf "$(SHARE)/skill"

test:
	scripts/test
