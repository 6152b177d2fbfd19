import { describe, expect, it } from 'vitest';
import blocklists from '../src/catalogue/blocklists.json' with { type: 'json' };
import categories from '../src/catalogue/parental-categories.json' with { type: 'json' };
import services from '../src/catalogue/parental-services.json' with { type: 'json' };
import {
  BLOCKLIST_CATALOGUE,
  type CatalogueFiles,
  CatalogueInvalidError,
  findBlocklist,
  findParentalCategory,
  findParentalService,
  isLicenceExpression,
  PARENTAL_CATEGORY_CATALOGUE,
  PARENTAL_SERVICES,
  parseCatalogues,
  suffixDomainProblem,
} from '../src/index.js';

/** A deep copy of the repository's catalogue files, for a test to corrupt. */
function copyOfFiles() {
  return structuredClone({ blocklists, categories, services });
}

function serviceIn(files: ReturnType<typeof copyOfFiles>, id: string) {
  const service = files.services.services.find((entry) => entry.id === id);
  if (service === undefined) throw new Error(`no service ${id} in the data`);
  return service;
}

function problemsOf(files: CatalogueFiles): string {
  try {
    parseCatalogues(files);
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogueInvalidError);
    return (error as Error).message;
  }
  throw new Error('the corrupted catalogue was accepted');
}

describe('catalogue data in the repository (spec 2.7, 4.7, 4.12)', () => {
  it('validates as it is', () => {
    expect(() => parseCatalogues({ blocklists, categories, services })).not.toThrow();
  });

  it('offers at least 40 parental services and at least 15 blocklists', () => {
    expect(PARENTAL_SERVICES.length).toBeGreaterThanOrEqual(40);
    expect(BLOCKLIST_CATALOGUE.lists.length).toBeGreaterThanOrEqual(15);
  });

  it('keeps ids unique within each catalogue', () => {
    const unique = (values: readonly unknown[]) => new Set(values).size === values.length;
    expect(unique(BLOCKLIST_CATALOGUE.lists.map((list) => list.id))).toBe(true);
    expect(unique(PARENTAL_CATEGORY_CATALOGUE.categories.map((category) => category.id))).toBe(true);
    expect(unique(services.services.map((service) => service.id))).toBe(true);
  });

  it('keeps list ids unique across blocklists, categories and services, retired ones included', () => {
    const listIds = [
      ...blocklists.lists.map((list) => list.id),
      ...categories.categories.map((category) => category.list_id),
      ...services.services.map((service) => service.list_id),
    ];
    expect(new Set(listIds).size).toBe(listIds.length);
    for (const listId of listIds) expect(listId).toBeLessThanOrEqual(65535);
  });

  it('references only categories that exist, and every category is fed by a list or a service', () => {
    const known = new Set(PARENTAL_CATEGORY_CATALOGUE.categories.map((category) => category.id));
    const fed = new Set<string>();
    for (const service of PARENTAL_SERVICES) {
      for (const category of service.categories) {
        expect(known.has(category), `${service.id} → ${category}`).toBe(true);
        fed.add(category);
      }
    }
    for (const list of BLOCKLIST_CATALOGUE.lists) {
      const category = /^parental\.categories:(.+)$/.exec(list.toggle ?? '')?.[1];
      if (category === undefined) continue;
      expect(known.has(category), `list ${list.id} → ${category}`).toBe(true);
      fed.add(category);
    }
    expect([...fed].sort()).toEqual([...known].sort());
  });

  it('gives every service its toggle and valid, lower-case suffix domains without trailing dots', () => {
    for (const service of PARENTAL_SERVICES) {
      expect(service.toggle).toBe(`service:${service.id}`);
      expect(service.id).toMatch(/^[a-z0-9-]{1,64}$/);
      expect(service.domains.length).toBeGreaterThan(0);
      for (const domain of service.domains) expect(suffixDomainProblem(domain), domain).toBeUndefined();
    }
  });

  it('names every licence by SPDX id or LicenseRef-, with a licence address', () => {
    const sources = [
      ...BLOCKLIST_CATALOGUE.lists.flatMap((list) => list.sources),
      ...PARENTAL_SERVICES.flatMap((service) => service.sources),
    ];
    for (const source of sources) {
      expect(isLicenceExpression(source.licence), `${source.id}: ${source.licence}`).toBe(true);
      expect(source.licence_url).toMatch(/^https:\/\//);
    }
  });

  it('answers services in list id order and leaves retired services out', () => {
    const listIds = PARENTAL_SERVICES.map((service) => service.list_id);
    expect(listIds).toEqual([...listIds].sort((a, b) => a - b));
    const retired = services.services.filter((service) => 'retired' in service && service.retired === true);
    expect(retired.length).toBeGreaterThan(0);
    for (const service of retired) {
      expect(findParentalService(service.id)).toBeUndefined();
      expect(PARENTAL_SERVICES.some((offered) => offered.id === service.id)).toBe(false);
    }
    expect(PARENTAL_SERVICES.every((service) => !('retired' in service))).toBe(true);
  });

  it('finds entries by id', () => {
    expect(findBlocklist(7)?.toggle).toBe('security.threat_intel');
    expect(findBlocklist(65535)).toBeUndefined();
    expect(findParentalService('youtube')?.domains).toContain('googlevideo.com');
    expect(findParentalService('nope')).toBeUndefined();
    expect(findParentalCategory('gambling')?.name).toBe('Gambling');
  });
});

describe(parseCatalogues.name, () => {
  it.each<[string, (files: ReturnType<typeof copyOfFiles>) => void, string[]]>([
    [
      'an upper-case domain',
      (files) => serviceIn(files, 'youtube').domains.push('YouTube.example'),
      ['parental-services.json services[0] "youtube"', 'domains[11]', '"YouTube.example" must be lower case'],
    ],
    [
      'a domain with a trailing dot',
      (files) => {
        serviceIn(files, 'netflix').domains[0] = 'netflix.com.';
      },
      ['"netflix"', '"netflix.com." must not end with a dot'],
    ],
    [
      'a domain that is not a name',
      (files) => {
        serviceIn(files, 'tiktok').domains[0] = 'tik_tok.com';
      },
      ['"tiktok"', 'invalid label "tik_tok"'],
    ],
    [
      'a domain already covered by another of the service',
      (files) => serviceIn(files, 'reddit').domains.push('old.reddit.com'),
      ['parental-services.json "reddit"', '"old.reddit.com" is already covered by "reddit.com"'],
    ],
    [
      'a category that does not exist',
      (files) => serviceIn(files, 'roblox').categories.push('toys'),
      ['parental-services.json "roblox"', 'unknown category "toys"'],
    ],
    [
      'a service id used twice',
      (files) => {
        serviceIn(files, 'vimeo').id = 'youtube';
      },
      ['service id "youtube" is used by more than one service'],
    ],
    [
      'a list id used by a service and a blocklist',
      (files) => {
        serviceIn(files, 'steam').list_id = 7;
      },
      ['list id 7 is used by more than one list', 'blocklists.json list 7', 'parental-services.json "steam"'],
    ],
    [
      'a list id over 65535',
      (files) => {
        serviceIn(files, 'discord').list_id = 70000;
      },
      ['"discord"', 'list_id'],
    ],
    [
      'a toggle that does not match the id',
      (files) => {
        serviceIn(files, 'signal').toggle = 'service:telegram';
      },
      ['"signal"', 'toggle must be "service:signal"'],
    ],
    [
      'a misspelt field',
      (files) => {
        const service: Record<string, unknown> = serviceIn(files, 'spotify');
        service.domain = service.domains;
        delete service.domains;
      },
      ['"spotify"', 'domain'],
    ],
    [
      'a curated source that miscounts its domains',
      (files) => {
        const source = serviceIn(files, 'ebay').sources[0];
        if (source !== undefined) source.domain_count += 1;
      },
      ['"ebay"', 'curated source "svc-curated" counts'],
    ],
    [
      'an invented SPDX id',
      (files) => {
        const source = files.blocklists.lists[0]?.sources[0];
        if (source !== undefined) source.licence = 'GPL-3';
      },
      ['blocklists.json lists[0] 1', '"GPL-3" is neither a known SPDX id nor a LicenseRef- reference'],
    ],
    [
      'a blocklist backing an unknown category',
      (files) => {
        const list = files.blocklists.lists.find((entry) => entry.id === 20);
        if (list !== undefined) list.toggle = 'parental.categories:lottery';
      },
      ['blocklists.json list 20 "Gambling"', 'unknown category "lottery"'],
    ],
    [
      'a blocklist whose attribution drops a source’s credit',
      (files) => {
        const list = files.blocklists.lists.find((entry) => entry.id === 21);
        if (list !== undefined) list.attribution = list.attribution.split('\n')[0] ?? '';
      },
      ['blocklists.json list 21', 'attribution lacks the line of source "hagezi-nsfw"'],
    ],
    [
      'a category nothing feeds',
      (files) => {
        files.categories.categories.push({
          id: 'weapons',
          name: 'Weapons',
          description: 'Arms.',
          list_id: 10099,
        });
      },
      ['parental-categories.json "weapons": no blocklist or active service feeds this category'],
    ],
  ])('refuses %s, naming the entry', (_case, corrupt, expected) => {
    const files = copyOfFiles();
    corrupt(files);
    const message = problemsOf(files);
    for (const fragment of expected) expect(message).toContain(fragment);
  });

  it('refuses a file that is not a catalogue at all', () => {
    expect(problemsOf({ blocklists: [], categories, services })).toContain('blocklists.json');
  });

  it('lists every problem at once', () => {
    const files = copyOfFiles();
    serviceIn(files, 'youtube').domains.push('Bad.example');
    serviceIn(files, 'twitch').categories.push('toys');
    const message = problemsOf(files);
    expect(message).toContain('"youtube"');
    expect(message).toContain('"twitch"');
  });
});
