# make install PREFIX=/usr/local: the release binary to PREFIX/bin and the bundled skills to
# PREFIX/share/skill/skills, where the installed binary looks for them.
PREFIX ?= /usr/local

.PHONY: build install uninstall test

build:
	scripts/setup
	swift build -c release --product skill

install: build
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/skill"
	install -m 0755 .build/release/skill "$(DESTDIR)$(PREFIX)/bin/skill"
	rm -rf "$(DESTDIR)$(PREFIX)/share/skill/skills"
	cp -R skills "$(DESTDIR)$(PREFIX)/share/skill/skills"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/skill"
	rm -rf "$(DESTDIR)$(PREFIX)/share/skill"

test:
	scripts/test
