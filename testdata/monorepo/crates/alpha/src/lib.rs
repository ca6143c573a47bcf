// Part of the monorepo fixture.
